#!/usr/bin/env bash
# One iteration of the networks' self-play data (issue 76): every seed variant's games played
# by one fixed engine binary with its compiled-in networks, sharded on a local Ray, resumable.
#
#   tuning/nnue/selfplay.sh RUN BINARY DATADIR [VARIANT...]
#
# RUN names the run's manifest, tuning/nnue/runs/RUN.md, which gives the binary's commit (checked
# against its start-up banner), and the games, nodes, seed and shards of each variant (the table under "Runs": one
# line `| variant | games | nodes | seed | shards |` each). The shards go to DATADIR/RUN/VARIANT/
# (shard-K.bin, shards.tsv, and data.bin when every shard is in). Run again with the same
# arguments, it plays only the shards that are missing: a stop loses only the shards under way.
# tuning/nnue/runs/RUN/VARIANT.tsv is a copy of shards.tsv, to be committed as the run goes.
# ONLY=A-B plays only shards A to B of each variant named (a machine that gives part of a run).
# Needs python3 with scripts/requirements-ray.txt (PYTHON names it).
set -euo pipefail
run="${1:?usage: selfplay.sh RUN BINARY DATADIR [VARIANT...]}"
binary="$(realpath "${2:?the engine binary}")"
data="${3:?the data directory}"
shift 3
python="${PYTHON:-python3}"
manifest="tuning/nnue/runs/$run.md"
[ -f "$manifest" ] || { echo "selfplay: no manifest $manifest" >&2; exit 1; }
want=$(sed -n 's/^- Engine: commit `\([0-9a-f]*\)`.*/\1/p' "$manifest")
got=$(echo quit | "$binary" | head -1 | sed -n 's/.*(commit \([0-9a-f]*\)).*/\1/p')
if [ -z "$want" ] || [ "${got:0:${#want}}" != "$want" ]; then
    echo "selfplay: $binary is of commit '$got', $manifest asks for '$want'" >&2
    exit 1
fi
variants=("$@")
if [ ${#variants[@]} -eq 0 ]; then
    mapfile -t variants < <(sed -n 's/^| `\([a-z]*\)` | [0-9].*/\1/p' "$manifest")
fi
mkdir -p "tuning/nnue/runs/$run"
for v in "${variants[@]}"; do
    row=$(grep "^| \`$v\` | " "$manifest") || { echo "selfplay: $v not in $manifest" >&2; exit 1; }
    read -r games nodes seed shards < <(echo "$row" | awk -F'|' '{print $3, $4, $5, $6}')
    out="$data/$run/$v"
    mkdir -p "$out"
    echo "selfplay: $v: $games games at $nodes nodes, seed $seed, $shards shards -> $out" >&2
    "$python" scripts/ray_datagen.py --shards "$shards" --num-cpus "${CPUS:-2}" --resume ${ONLY:+--only "$ONLY"} \
        --menagerie "$binary" --out "$out" -- \
        --variant "$v" --games "$games" --nodes "$nodes" --seed "$seed" || status=$?
    [ -f "$out/shards.tsv" ] && cp "$out/shards.tsv" "tuning/nnue/runs/$run/$v.tsv"
    if [ "${status:-0}" -ne 0 ]; then exit "$status"; fi
done
