#!/usr/bin/env bash
# Depth N against depth N-2 in every variant (issue 17's "each variant's depth N vs N-2 still
# clearly ahead"): one `menagerie match` per variant between two copies of the same build, one
# searching N plies per turn and the other N-2, from random openings, colours reversed in pairs.
# Each match prints its W/D/L from the deeper side, Elo with its 95% interval and LOS; a last
# table sums them up. Fixed depth does not depend on the clock, so a busy machine only makes the
# run slower, never the figures different (the openings come from --seed).
#
# Setup: cargo build --release. Usage:
#   scripts/depth_ladder.sh [GAMES (100)] [SEED (1)]
#   ENGINE=<path> picks another build; VARIANTS="chess mystic" picks variants;
#   DEPTHS="chess=8 mitosis=6" overrides the deeper side's depth per variant.
# Default N: 8 plies (chess, Mystic, Muster), 6 (Mitosis, Mulligan Stew, whose turns are two
# plies) and 4 (Mutatis Mutandis, whose bench depth is 5).
set -euo pipefail
GAMES=${1:-100}
SEED=${2:-1}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${ENGINE:-$ROOT/target/release/menagerie}
[ -x "$BIN" ] || (cd "$ROOT" && cargo build --release)
VARIANTS=${VARIANTS:-$("$BIN" variants)}
declare -A N=([chess]=8 [mystic]=8 [muster]=8 [mitosis]=6 [mulliganstew]=6 [mutatismutandis]=4)
for kv in ${DEPTHS:-}; do N[${kv%%=*}]=${kv#*=}; done
CONCURRENCY=${CONCURRENCY:-2}

summary=()
for v in $VARIANTS; do
  n=${N[$v]:-8}
  m=$((n - 2))
  echo "== $v: depth $n against depth $m, $GAMES games"
  out=$("$BIN" match --engine "$BIN depth=$n name=d$n" --engine "$BIN depth=$m name=d$m" \
    --variant "$v" --games "$GAMES" --depth "$m" --random-plies 6 --seed "$SEED" \
    --concurrency "$CONCURRENCY" 2>&1)
  echo "$out" | grep -v '^game ' || true
  wdl=$(echo "$out" | grep -m1 '^Games:' | sed 's/  (from.*//' || true)
  elo=$(echo "$out" | grep -m1 '^Elo:' || true)
  summary+=("$(printf '%-16s d%-2s vs d%-2s  %s  %s' "$v" "$n" "$m" "${wdl:-(no result)}" "$elo")")
done
echo "== summary"
printf '%s\n' "${summary[@]}"
