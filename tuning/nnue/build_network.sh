#!/usr/bin/env bash
# Rebuilds a variant's compiled-in network from scratch, as its manifest
# (src/variants/<variant>/network.manifest.md) records: self-play data on a local Ray, merged;
# training; the losses drawn; the hashes checked against the manifest's.
#
#   tuning/nnue/build_network.sh chess|mystic|muster|mulliganstew|mitosis|mutatismutandis [WORKDIR]
#
# Chess takes its own route (its manifest): self-play in text shards, Stockfish's scores
# (scripts/relabel_stockfish.py; apt-get install stockfish), the a-h mirror, and
# tuning/nnue/train.py (tuning/nnue/requirements.txt).
# The hashes match at the commits the manifest names; a later commit that changes the search
# or the hand-written evaluation plays other games, hence other data and another network.
# Needs `cargo`, python3 with scripts/requirements-ray.txt and requirements-plots.txt. Writes
# WORKDIR/data.bin, WORKDIR/network.nnv (+ .losses.csv, .losses.png); copy network.nnv over
# src/variants/<variant>/network.nnv to adopt it. Exit status 1 when a hash differs.
set -euo pipefail
variant="${1:?usage: build_network.sh <variant> [workdir]}"
work="${2:-target/network-$variant}"
python="${PYTHON:-python3}"
init_from_chess=
check() {
    local got
    got=$(sha256sum "$1" | cut -d' ' -f1)
    if [ "$got" != "$2" ]; then
        echo "build_network: $1 has sha256 $got, the manifest says $2" >&2
        return 1
    fi
    echo "build_network: $1 matches the manifest"
}
have() {
    [ -f "$1" ] && [ "$(sha256sum "$1" | cut -d' ' -f1)" = "$2" ]
}
# Chess: two self-play runs (seeds 6061 and 6062), each relabelled by Stockfish in its own
# processes. Each step is skipped when its output is already in WORKDIR with the manifest's
# hash, so an interrupted build resumes (per run on two cores: datagen about 55 min,
# relabelling about 35 min).
chess_run() {
    local seed=$1 data_sha=$2 sf_sha=$3 dir="$work/run-$1"
    mkdir -p "$dir"
    if ! have "$dir/data.txt" "$data_sha"; then
        local pids=() k
        for k in 1 2; do
            target/release/menagerie datagen --variant chess --games 8000 --nodes 8000 \
                --seed "$seed" --shard "$k/2" --eval-file "$work/chess-fourth.nnv" \
                --out "$dir/shard-$k.txt" &
            pids+=($!)
        done
        for k in "${pids[@]}"; do wait "$k"; done
        cat "$dir/shard-1.txt" "$dir/shard-2.txt" > "$dir/data.txt"
    fi
    check "$dir/data.txt" "$data_sha"
    if ! have "$dir/data-sf.txt" "$sf_sha"; then
        "$python" scripts/relabel_stockfish.py "$dir/data.txt" "$dir/data-sf.txt" \
            --nodes 5000 --jobs 2
    fi
    check "$dir/data-sf.txt" "$sf_sha"
    "$python" tuning/nnue/mirror.py "$dir/data-sf.txt" "$dir/data-sf-m.txt"
    for f in data-sf data-sf-m; do
        target/release/menagerie-tuning evals --variant chess --data "$dir/$f.txt" \
            --values "$work/hce.values" > "$dir/$f-ev.txt"
    done
}
build_chess() {
    local net_sha=da94f6cb0086c80183787376c0a134d5a3b7ded03d489af0aeff8b2c9118f4c8
    if ! /usr/games/stockfish quit 2>/dev/null | grep -q "Stockfish 15.1"; then
        echo "build_network: chess's labels need Stockfish 15.1 at /usr/games/stockfish" \
            "(apt-get install stockfish on Debian 12/13)" >&2
        exit 1
    fi
    mkdir -p "$work"
    cargo build --release --quiet --workspace
    # The games are played with chess's fourth network, compiled in at 35f0b16, taken from
    # the repository's history.
    git show 35f0b16:src/variants/chess/network.nnv > "$work/chess-fourth.nnv"
    echo "net_permille = 0" > "$work/hce.values"
    chess_run 6061 3b7274dcb0ea62284d291cdc38a863e5af5db012c0f2fe9e3217047a49f95684 \
        aaeeab9e8cdcc883e6f053952d2dc10e55751ecc1a34ff8e15b1285d532d5a90
    chess_run 6062 39f481cd5831085ab9c4baf17fdfedb0f888d77e1a2cc02d1ff5781f57206fcd \
        d75ea16cbd6a7d5928f812d658ad80654540b65d3fa1c1f36e83df95953ee869
    # One file per kind, so that games are numbered across both runs (the trainer holds out
    # whole games, each with its mirror image).
    cat "$work/run-6061/data-sf-ev.txt" "$work/run-6062/data-sf-ev.txt" > "$work/data-ev.txt"
    cat "$work/run-6061/data-sf-m-ev.txt" "$work/run-6062/data-sf-m-ev.txt" \
        > "$work/data-m-ev.txt"
    "$python" tuning/nnue/train.py "$work/data-ev.txt" "$work/data-m-ev.txt" \
        --max-diff 300 --hidden 32 --epochs 8 --lambda 0 --seed 1 --out "$work/network.nnv"
    "$python" tuning/nnue/plot_losses.py "$work/network.nnv.losses.csv"
    check "$work/network.nnv" "$net_sha"
}
case "$variant" in
    chess)
        build_chess
        exit
        ;;
    mystic)
        # --eval-file '<none>': the data of the first network came from the hand-written
        # evaluation (at 2b2c2c3 there was no network to turn off).
        datagen=(--variant mystic --games 4000 --nodes 3000 --seed 1 --eval-file '<none>')
        shards=8
        train=(--epochs 10 --lambda 0.2 --lr 0.0005 --seed 1)
        data_sha=d095d1f0df176e7a09feaa1ab03167caae7d337684acf96323763e03fbc04b64
        net_sha=3389435176287ae49ceab5c473db630832a9ca4406b3f4cbf7d992d32d89bb59
        ;;
    muster)
        # Fine-tuned from chess's network (tuning/nnue/chess_to_variant.py), below.
        datagen=(--variant muster --games 4000 --nodes 3000 --seed 1 --eval-file '<none>')
        shards=8
        init_from_chess=896
        train=(--epochs 8 --lambda 0.2 --lr 0.0002 --l2 0.000001 --seed 1)
        data_sha=29a8183e43c5130cf7939e0d07889999b2618d8800d204d720fc3de7d9383070
        net_sha=aa8a50ab58fb5fac965916579e20afc811846f2ee062d572ed2a5a8a1bee9c65
        ;;
    mulliganstew)
        datagen=(--variant mulliganstew --games 4000 --nodes 3000 --seed 1 --eval-file '<none>')
        shards=8
        train=(--epochs 10 --lambda 0.2 --lr 0.0005 --seed 1)
        data_sha=2d3c63bf68c6b298646b5a92282a5e8ecd3914daa9f0e0d268f2611ccaf4b267
        net_sha=3bdfa392d0739b020c19bda0cd68ce6cbcade9454d99d0368a8041669be4b129
        ;;
    mitosis)
        datagen=(--variant mitosis --games 4000 --nodes 3000 --seed 1 --eval-file '<none>')
        shards=8
        train=(--epochs 12 --lambda 0.0 --lr 0.0005 --l2 0.0001 --seed 1)
        data_sha=5242d65006b50ac2c2fffacb992f611f8d153f0993c103c9c2d92888fa5d4c7a
        net_sha=c569b70b298055a0b91cb2f424d2e8051817ac8523ea21c8f09e628682757d88
        ;;
    mutatismutandis)
        datagen=(--variant mutatismutandis --games 4000 --nodes 3000 --seed 1
            --eval-file '<none>')
        shards=8
        train=(--epochs 10 --lambda 0.0 --lr 0.0005 --l2 0.0001 --seed 1 --threads 1)
        data_sha=c64e80869a5cc3bf2259f527128f69fbf7f57b4fc136fad5eb66bd49787104ae
        net_sha=53fef7ea8606e3f72b45c019adf95f5c074db6ca1a83dc7a42ff95d104f74289
        ;;
    *)
        echo "build_network: no manifest for '$variant'" >&2
        exit 1
        ;;
esac
mkdir -p "$work"
cargo build --release --quiet --workspace
"$python" scripts/ray_datagen.py --shards "$shards" --num-cpus 1 --out "$work/shards" -- \
    "${datagen[@]}"
cp "$work/shards/data.bin" "$work/data.bin"
if [ -n "$init_from_chess" ]; then
    # The chess network it was fine-tuned from: chess's fourth, compiled in until 2026-11-29
    # (taken from the repository's history, since chess's network has changed since).
    git show 35f0b16:src/variants/chess/network.nnv > "$work/chess-fourth.nnv"
    "$python" tuning/nnue/chess_to_variant.py "$work/chess-fourth.nnv" "$variant" \
        "$init_from_chess" "$work/chess.nnv"
    train+=(--init "$work/chess.nnv")
fi
target/release/menagerie-tuning net --variant "$variant" --data "$work/data.bin" \
    --out "$work/network.nnv" "${train[@]}"
"$python" tuning/nnue/plot_losses.py "$work/network.nnv.losses.csv"
check "$work/data.bin" "$data_sha"
check "$work/network.nnv" "$net_sha"
