#!/usr/bin/env bash
# Time to depth of the Lazy SMP search: Threads 2 against Threads 1 (issue 17's figure).
#
# Runs `menagerie bench --variant V --threads T [--depth D]` RUNS times for T = 1 and T = 2,
# alternating so that a drift of the machine's speed hits both alike, and prints each run's
# wall time (the bench's "Total time", milliseconds) and nodes, the median time of each and
# the ratio median(Threads 2) / median(Threads 1). A ratio of 0.5 would be perfect scaling.
# It also splits that ratio into its two causes: the node ratio (median nodes of Threads 2
# over the one-thread count, the extra work of Lazy SMP) and the speed ratio (median nodes per
# second of Threads 2 over Threads 1's, bench nodes over bench time with the TT clearing
# included; the machine bounds it: two busy cores are often slower each than one). Time
# ratio = node ratio / speed ratio, up to the medians.
#
# Setup: cargo build --release. Run by hand on an otherwise idle machine with at least two
# cores (a match or a build running meanwhile makes the figure meaningless).
# Usage: scripts/smp_ttd.sh [RUNS (5)] [VARIANT (chess)] [DEPTH (the variant's bench depth)]
#        ENGINE=<path> picks another build.
set -euo pipefail
RUNS=${1:-5}
VARIANT=${2:-chess}
DEPTH=${3:-}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${ENGINE:-$ROOT/target/release/menagerie}
[ -x "$BIN" ] || (cd "$ROOT" && cargo build --release)
depth_arg=()
[ -n "$DEPTH" ] && depth_arg=(--depth "$DEPTH")

declare -a t1 t2 n1 n2 s1 s2
for ((i = 1; i <= RUNS; i++)); do
  for t in 1 2; do
    read -r ms nodes < <("$BIN" bench --variant "$VARIANT" --threads "$t" "${depth_arg[@]}" 2>&1 |
      awk '/Total time/ {ms=$NF} /Nodes searched/ {n=$NF} END {print ms, n}')
    echo "run $i threads $t: $ms ms, $nodes nodes"
    nps=$((nodes * 1000 / (ms > 0 ? ms : 1)))
    if [ "$t" = 1 ]; then t1+=("$ms"); n1+=("$nodes"); s1+=("$nps"); else t2+=("$ms"); n2+=("$nodes"); s2+=("$nps"); fi
  done
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
m1=$(median "${t1[@]}")
m2=$(median "${t2[@]}")
awk -v a="$m1" -v b="$m2" 'BEGIN {printf "median Threads 1: %s ms, Threads 2: %s ms, ratio %.3f\n", a, b, b/a}'
awk -v a="$(median "${n1[@]}")" -v b="$(median "${n2[@]}")" -v c="$(median "${s1[@]}")" -v d="$(median "${s2[@]}")" \
  'BEGIN {printf "median nodes %d / %d (node ratio %.3f), nodes/s %d / %d (speed ratio %.3f)\n", a, b, b/a, c, d, d/c}'
