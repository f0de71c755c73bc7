#!/usr/bin/env bash
# The bench signature check (as Stockfish's CI does): the total node count of `menagerie bench`
# (every variant, one thread, fixed depths) must equal the last `Bench: <nodes>` line in the git
# log, so a change of play cannot land unannounced. Run from the repository root after a
# release build; CI runs it (.ci/run). Exit status 1 on a mismatch, and when there is no
# Bench: line to compare with: in a shallow clone it first fetches the rest of the history
# (from the remote $BENCH_REMOTE, default origin), and fails if it cannot.
#
#   scripts/ci/check_bench.sh [path/to/menagerie]
set -euo pipefail
bin="${1:-target/release/menagerie}"
total=$("$bin" bench | awk '/^Nodes searched/ {print $NF}')
if [ -z "$total" ]; then
    echo "check_bench: no 'Nodes searched' line from $bin bench" >&2
    exit 1
fi
if ! git rev-parse --git-dir >/dev/null 2>&1; then
    echo "check_bench: not in a git repository: no 'Bench: <nodes>' line to check the bench total $total against" >&2
    exit 1
fi
# The last Bench: line of the history reachable from HEAD.
last_claim() {
    git log -1 --extended-regexp --grep='^Bench: [0-9]+' --format=%B |
        awk '/^Bench: [0-9]+/ {n = $2} END {print n}'
}
claimed=$(last_claim)
# A shallow clone (CI's checkouts often are) may end before the last Bench: line: fetch the
# rest of the history from the remote, or fail. Never pass without checking.
if [ -z "$claimed" ] && [ "$(git rev-parse --is-shallow-repository)" = "true" ]; then
    echo "check_bench: a shallow clone without a Bench: line; fetching the rest of the history" >&2
    if ! git fetch --quiet --unshallow "${BENCH_REMOTE:-origin}" >&2; then
        echo "check_bench: could not fetch the history from '${BENCH_REMOTE:-origin}'; bench total $total not checked" >&2
        exit 1
    fi
    claimed=$(last_claim)
fi
if [ -z "$claimed" ]; then
    echo "check_bench: no 'Bench: <nodes>' line in the git log; bench total is $total" >&2
    exit 1
fi
if [ "$total" != "$claimed" ]; then
    echo "check_bench: bench total $total differs from the last 'Bench: $claimed' in the log:" >&2
    echo "  a commit changed play without saying so; end its message with 'Bench: $total'" >&2
    exit 1
fi
echo "check_bench: bench total $total matches the last Bench: line"
