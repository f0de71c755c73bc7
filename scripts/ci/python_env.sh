#!/usr/bin/env bash
# Makes the Python environment of the CI checks that need packages (Ray, matplotlib): a venv at
# target/ci-venv with the pinned scripts/requirements-{ray,plots}.txt. Prints the venv's python.
# Does nothing when the venv already holds those versions.
#
#   python=$(scripts/ci/python_env.sh)
set -euo pipefail
venv=target/ci-venv
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv" >&2
fi
"$venv/bin/pip" install --quiet --disable-pip-version-check \
    -r scripts/requirements-ray.txt -r scripts/requirements-plots.txt >&2
echo "$venv/bin/python"
