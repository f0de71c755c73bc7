#!/usr/bin/env bash
# CI smoke test of the network pipeline (docs/networks.md), end to end in well under a minute:
# a few thousand Mystic positions of self-play (binary datagen), a tiny network trained on them
# (menagerie-tuning net), its losses drawn, and the network loaded by the engine (EvalFile) and
# used by a search. Run from the repository root after `cargo build --release --workspace`;
# needs python3 with scripts/requirements-plots.txt. Exit status 1 on any failure.
#
#   scripts/ci/smoke_network.sh [target/release]
set -euo pipefail
bin="${1:-target/release}"
python="${PYTHON:-python3}"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

"$bin/menagerie" datagen --variant mystic --games 60 --nodes 300 --threads 2 --seed 1 \
    --format bin --out "$dir/data.bin"
"$bin/menagerie-tuning" net --variant mystic --data "$dir/data.bin" --out "$dir/net.nnv" \
    --epochs 3 --seed 1 | tee "$dir/train.txt"
grep -q "^epoch 3: train" "$dir/train.txt"
"$python" tuning/nnue/plot_losses.py "$dir/net.nnv.losses.csv" --out "$dir/losses.png"
test -s "$dir/losses.png"

answer=$(printf 'setoption name UCI_Variant value mystic\nsetoption name EvalFile value %s\nposition startpos moves e1d1\neval\ngo depth 4\n' \
    "$dir/net.nnv" | "$bin/menagerie" 2>&1)
echo "$answer" | grep -q "info string mystic: network $dir/net.nnv" \
    || { echo "smoke_network: EvalFile did not load the network:" >&2; echo "$answer" >&2; exit 1; }
echo "$answer" | grep -q "^Network residual (EvalFile, side to move): " \
    || { echo "smoke_network: no network residual in eval" >&2; exit 1; }
echo "$answer" | grep -q "^bestmove " \
    || { echo "smoke_network: no bestmove with the network" >&2; exit 1; }
echo "smoke_network: $(grep -o "[0-9]* training" "$dir/train.txt") positions trained on, network loaded and searched"
