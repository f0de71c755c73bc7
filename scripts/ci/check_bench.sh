#!/usr/bin/env bash
# The bench signature check (as Stockfish's CI does): the total node count of `menagerie bench`
# (every variant, one thread, fixed depths) must equal the last `Bench: <nodes>` line in the git
# log, so a change of play cannot land unannounced. Run from the repository root after a
# release build; CI runs it (.ci/run). Exit status 1 on a mismatch.
#
#   scripts/ci/check_bench.sh [path/to/menagerie]
set -euo pipefail
bin="${1:-target/release/menagerie}"
total=$("$bin" bench | awk '/^Nodes searched/ {print $NF}')
if [ -z "$total" ]; then
    echo "check_bench: no 'Nodes searched' line from $bin bench" >&2
    exit 1
fi
claimed=""
if git rev-parse --git-dir >/dev/null 2>&1; then
    claimed=$(git log -1 --extended-regexp --grep='^Bench: [0-9]+' --format=%B |
        awk '/^Bench: [0-9]+/ {n = $2} END {print n}')
fi
if [ -z "$claimed" ]; then
    if [ "$(git rev-parse --is-shallow-repository 2>/dev/null || echo true)" = "true" ]; then
        echo "check_bench: no Bench: line in this (shallow or absent) history; bench total $total (not checked)"
        exit 0
    fi
    echo "check_bench: no 'Bench: <nodes>' line in the git log; bench total is $total" >&2
    exit 1
fi
if [ "$total" != "$claimed" ]; then
    echo "check_bench: bench total $total differs from the last 'Bench: $claimed' in the log:" >&2
    echo "  a commit changed play without saying so; end its message with 'Bench: $total'" >&2
    exit 1
fi
echo "check_bench: bench total $total matches the last Bench: line"
