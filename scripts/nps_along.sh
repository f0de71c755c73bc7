#!/bin/bash
# Nodes per second of a variant's bench along several builds, in one set of alternating runs
# (the builds take turns, so a change in the machine's speed falls on all of them alike):
# the median, lowest and highest of RUNS runs of each build, as CSV rows for
# scripts/plot_speed.py --nps (docs/speed/mutatis-nps.csv).
#
# Usage: scripts/nps_along.sh RUNS DEPTH VARIANT BUILD:COMMIT:STEP...
#   BUILD  a release binary of the commit (git worktree add /tmp/w COMMIT &&
#          cargo build --release --manifest-path /tmp/w/Cargo.toml)
#   STEP   the label of the row
# Each run is `BUILD bench --variant VARIANT --depth DEPTH --eval-file '<none>'` (the
# hand-written evaluation, which issue 59's target holds fixed); a build whose `bench` has no
# --eval-file (before the networks, such as 7f7d81a) runs without it.
set -euo pipefail
runs=$1; depth=$2; variant=$3; shift 3
declare -A got
nps() {
  local bin=$1 out
  if "$bin" bench --help 2>/dev/null | grep -q -- --eval-file; then
    out=$("$bin" bench --variant "$variant" --depth "$depth" --eval-file '<none>')
  else
    out=$("$bin" bench --variant "$variant" --depth "$depth")
  fi
  echo "$out" | awk '/Nodes\/second/ {print $3}'
}
for _ in $(seq "$runs"); do
  for b in "$@"; do
    bin=${b%%:*}
    got[$b]="${got[$b]:-} $(nps "$bin")"
  done
done
echo "commit,step,median,low,high"
for b in "$@"; do
  rest=${b#*:}; commit=${rest%%:*}; step=${rest#*:}
  sorted=$(printf '%s\n' ${got[$b]} | sort -n)
  n=$(echo "$sorted" | wc -l)
  median=$(echo "$sorted" | sed -n "$(( (n + 1) / 2 ))p")
  echo "$commit,\"${step//\"/\"\"}\",$median,$(echo "$sorted" | head -1),$(echo "$sorted" | tail -1)"
done
