#!/usr/bin/env bash
# fastchess against menagerie (issue 13), run by hand; the tests do not need it.
#
# 1. fastchess's UCI compliance check (orthodox chess): 40 steps, "Engine passed all
#    compliance checks." at the end.
# 2. A 20-game Chess960 match against Stockfish 15.1 at UCI_Elo 2000, 10+0.1, from the first 10
#    of the 20 Chess960 starts of tests/data/chess960.epd (each twice, colours reversed):
#    fastchess sends UCI_Chess960 true and Shredder/X-FEN positions; the log is searched for
#    illegal moves and warnings.
#
# fastchess is not packaged: build it from its source (https://github.com/Disservin/fastchess;
# checked with commit 74deac23aadc6718fa0f8e24ac95d16392d79444):
#     apt-get install -y g++ make stockfish
#     git clone https://github.com/Disservin/fastchess && make -C fastchess -j2
# then, from the repository root after `cargo build --release`:
#     FASTCHESS=/path/to/fastchess/fastchess scripts/fastchess_check.sh [out-dir]
#
# tests/data/chess960.epd holds Scharnagl numbers 45 177 298 316 319 388 397 490 492 538 564
# 572 732 779 792 841 864 910 925 938 (python-chess: chess.Board.from_chess960_pos(n).fen()).
# On a loaded machine Stockfish may overrun its clock: TIMEMARGIN (ms, default 1000) is how far
# an engine may overrun before fastchess calls it a time loss.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
fastchess="${FASTCHESS:-fastchess}"
stockfish="${STOCKFISH:-/usr/games/stockfish}"
engine="$(pwd)/${ENGINE:-target/release/menagerie}"
out="${1:-/tmp/fastchess-check}"
margin="${TIMEMARGIN:-1000}"
mkdir -p "$out"

echo "==> fastchess --compliance $engine"
"$fastchess" --compliance "$engine" | tee "$out/compliance.txt"
grep -q "Engine passed all compliance checks" "$out/compliance.txt"

echo "==> 20 Chess960 games against Stockfish at UCI_Elo 2000, 10+0.1"
"$fastchess" \
    -engine cmd="$engine" name=menagerie \
    -engine cmd="$stockfish" name=stockfish-2000 option.UCI_LimitStrength=true option.UCI_Elo=2000 \
    -each tc=10+0.1 timemargin="$margin" option.Hash=16 option.Threads=1 \
    -variant fischerandom \
    -openings file=tests/data/chess960.epd format=epd order=sequential \
    -rounds 10 -games 2 -repeat -concurrency "${CONCURRENCY:-1}" \
    -pgnout file="$out/chess960.pgn" \
    -log file="$out/fastchess.log" level=warn \
    2>&1 | tee "$out/match.txt"

echo "==> checks"
# Stockfish's skill levels play moves off their PV, which fastchess reports as a warning about
# Stockfish; every other warning, and any illegal move, time loss or disconnection, counts.
logs=("$out/match.txt")
[ -f "$out/fastchess.log" ] && logs+=("$out/fastchess.log")
problems=$(grep -Ehi "illegal|disconnect|stall|timeout|on time|warn" "${logs[@]}" |
    grep -v "Bestmove does not match beginning of last PV - move [a-h0-9qrbn]* from stockfish" || true)
if [ -n "$problems" ]; then
    echo "$problems"
    echo "fastchess_check: problems found (above)" >&2
    exit 1
fi
grep -E "^Results of|^Elo:|^Games:|Ptnml" "$out/match.txt" | tail -4 || true
echo "fastchess_check: compliance passed; no illegal move, time loss or warning about menagerie"
