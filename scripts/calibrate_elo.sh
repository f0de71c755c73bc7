#!/bin/bash
# Calibrate UCI_Elo of orthodox chess against Stockfish 15.1's own UCI_Elo (issue 13).
# Needs: apt-get install stockfish (binary /usr/games/stockfish) and a release build.
# Usage: scripts/calibrate_elo.sh ELO [GAMES] [OUTDIR]
# Plays GAMES (default 40) games at 10+0.1, both engines at UCI_Elo=ELO, openings from
# tests/data/chess.epd, one game at a time (CONCURRENCY=<n> plays n at once: 2 on 2 cores, as the
# table in docs/protocol.md was measured); writes OUTDIR/elo-ELO-sf-SFELO.{txt,pgn,json}.
# SF_ELO=<elo> sets Stockfish's UCI_Elo apart from ours (default: the same ELO), so a level
# can be measured against an opponent of about its strength.
# With NODES=<n> both engines search n nodes a turn instead of using a clock (a load-proof
# stand-in for a time control on a shared machine). ENGINE=<path> picks another build.
set -euo pipefail
ELO=${1:?usage: calibrate_elo.sh ELO [GAMES] [OUTDIR]}
GAMES=${2:-40}
OUT=${3:-calibration}
SF_ELO=${SF_ELO:-$ELO}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${ENGINE:-$ROOT/target/release/menagerie}
SF=${STOCKFISH:-/usr/games/stockfish}
[ -x "$BIN" ] || (cd "$ROOT" && cargo build --release)
[ -x "$SF" ] || { echo "stockfish not found at $SF (apt-get install stockfish)" >&2; exit 1; }
mkdir -p "$OUT"
if [ -n "${NODES:-}" ]; then LIMIT="--nodes $NODES --timeout 120000"; else LIMIT="--tc 10+0.1"; fi
"$BIN" match \
  --engine "$BIN option.UCI_LimitStrength=true option.UCI_Elo=$ELO name=menagerie-$ELO" \
  --engine "$SF option.UCI_LimitStrength=true option.UCI_Elo=$SF_ELO name=stockfish-$SF_ELO" \
  --variant chess --games "$GAMES" $LIMIT --openings "$ROOT/tests/data/chess.epd" \
  --concurrency "${CONCURRENCY:-1}" --margin 1000 --pgn "$OUT/elo-$ELO-sf-$SF_ELO.pgn" --json "$OUT/elo-$ELO-sf-$SF_ELO.json" \
  | tee "$OUT/elo-$ELO-sf-$SF_ELO.txt"
