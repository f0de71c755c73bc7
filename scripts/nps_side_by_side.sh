#!/bin/bash
# Nodes per second of two builds side by side: RUNS alternating runs of `bench --variant V`
# of each build, per variant, and the median of each (docs/experiments.md).
# Usage: scripts/nps_side_by_side.sh RUNS BASE NEW
# Prints per variant: the two medians, NEW/BASE, and every run.
set -euo pipefail
runs=$1; base=$2; new=$3
median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }
nps() { "$1" bench --variant "$2" 2>&1 | awk '/Nodes\/second/ {print $3}'; }
for v in $("$new" variants); do
  a=(); b=()
  for _ in $(seq "$runs"); do
    a+=("$(nps "$base" "$v")")
    b+=("$(nps "$new" "$v")")
  done
  ma=$(median "${a[@]}"); mb=$(median "${b[@]}")
  echo "$v base=$ma new=$mb ratio=$(awk "BEGIN {printf \"%.3f\", $mb / $ma}") base:[${a[*]}] new:[${b[*]}]"
done
