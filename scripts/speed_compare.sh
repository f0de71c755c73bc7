#!/usr/bin/env bash
# Speed of menagerie against Stockfish and Fairy-Stockfish, measured in one run on this machine.
#
#   1. perft 6 from the start position (119,060,324 nodes), single thread:
#      Stockfish `go perft 6` vs `menagerie perft --variant chess --depth 6`.
#   2. search speed: nodes per second of each engine's own `bench`, single thread, default
#      settings: `stockfish bench` (16 MiB, 1 thread, depth 13, its default positions, NNUE),
#      `fairy-stockfish bench 16 1 13 default depth` (the same arguments spelled out; classical
#      evaluation in this build) and `menagerie bench` (its defaults: depth 12, 1 thread,
#      16 MiB). The three benches search different positions to different trees: compare
#      nodes/s, not node counts.
#
# Setup: apt-get install stockfish fairy-stockfish; cargo build --release.
# Usage: scripts/speed_compare.sh [path/to/menagerie]
# Runs by hand (about a minute of one core); nothing else heavy should run meanwhile.
set -u

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
ME="${1:-$ROOT/target/release/menagerie}"
SF="${STOCKFISH:-/usr/games/stockfish}"
FSF="${FAIRY_STOCKFISH:-/usr/games/fairy-stockfish}"
DEPTH="${PERFT_DEPTH:-6}"

for bin in "$ME" "$SF" "$FSF"; do
    [ -x "$bin" ] || { echo "missing $bin (cargo build --release / apt-get install stockfish fairy-stockfish)" >&2; exit 1; }
done

now_ms() { date +%s%3N; }

# Last integer on the first line matching a pattern (strips thousands separators).
num_after() { grep -iE "$1" | tail -n 1 | tr -d ',' | grep -oE '[0-9]+' | tail -n 1; }

# --- perft ---------------------------------------------------------------------------------
t0=$(now_ms)
sf_perft_nodes=$(printf 'setoption name Threads value 1\nposition startpos\ngo perft %s\nquit\n' "$DEPTH" \
    | "$SF" 2>&1 | num_after 'Nodes searched')
t1=$(now_ms)
sf_perft_ms=$((t1 - t0))

# menagerie's perft splits the root over rayon threads: pin it to one thread.
me_perft_args=(perft --variant chess --depth "$DEPTH")
if "$ME" perft --help 2>&1 | grep -q -- '--threads'; then
    me_perft_args+=(--threads 1)
fi
t0=$(now_ms)
me_perft_out=$(RAYON_NUM_THREADS=1 "$ME" "${me_perft_args[@]}" 2>&1)
t1=$(now_ms)
me_perft_ms=$((t1 - t0))
me_perft_nodes=$(echo "$me_perft_out" | num_after 'Nodes searched')

# --- bench ---------------------------------------------------------------------------------
sf_bench=$("$SF" bench 2>&1)
sf_nps=$(echo "$sf_bench" | num_after 'Nodes/second')
sf_bench_nodes=$(echo "$sf_bench" | num_after 'Nodes searched')
fsf_bench=$("$FSF" bench 16 1 13 default depth 2>&1)
fsf_nps=$(echo "$fsf_bench" | num_after 'Nodes/second')
fsf_bench_nodes=$(echo "$fsf_bench" | num_after 'Nodes searched')
me_bench=$("$ME" bench 2>&1)
me_nps=$(echo "$me_bench" | num_after 'Nodes/second')
me_bench_nodes=$(echo "$me_bench" | num_after 'Nodes searched')

rate() { # nodes ms -> nodes/second
    if [ -n "$1" ] && [ "${2:-0}" -gt 0 ]; then echo $(( $1 * 1000 / $2 )); else echo "?"; fi
}
ratio() { # a b -> a/b with two decimals
    if [ -n "$1" ] && [ -n "$2" ] && [ "$1" != "?" ] && [ "$2" != "?" ] && [ "$2" -gt 0 ]; then
        awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'
    else echo "?"; fi
}

sf_perft_nps=$(rate "$sf_perft_nodes" "$sf_perft_ms")
me_perft_nps=$(rate "$me_perft_nodes" "$me_perft_ms")

echo
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-34s %14s %10s %14s %12s\n' "measure" "nodes" "ms" "nodes/s" "vs menagerie"
printf '%-34s %14s %10s %14s %12s\n' "perft $DEPTH: stockfish (1 thread)" "${sf_perft_nodes:-?}" "$sf_perft_ms" "$sf_perft_nps" "$(ratio "$sf_perft_nps" "$me_perft_nps")x"
printf '%-34s %14s %10s %14s %12s\n' "perft $DEPTH: menagerie (1 thread)" "${me_perft_nodes:-?}" "$me_perft_ms" "$me_perft_nps" "1.00x"
printf '%-34s %14s %10s %14s %12s\n' "bench: stockfish 15.1 (NNUE)" "${sf_bench_nodes:-?}" "" "${sf_nps:-?}" "$(ratio "${sf_nps:-?}" "${me_nps:-?}")x"
printf '%-34s %14s %10s %14s %12s\n' "bench: fairy-stockfish (classical)" "${fsf_bench_nodes:-?}" "" "${fsf_nps:-?}" "$(ratio "${fsf_nps:-?}" "${me_nps:-?}")x"
printf '%-34s %14s %10s %14s %12s\n' "bench: menagerie" "${me_bench_nodes:-?}" "" "${me_nps:-?}" "1.00x"
if [ -n "${me_perft_nodes:-}" ] && [ -n "${sf_perft_nodes:-}" ] && [ "$me_perft_nodes" != "$sf_perft_nodes" ]; then
    echo "WARNING: perft node counts differ (menagerie $me_perft_nodes, stockfish $sf_perft_nodes)"
fi
if [ -z "${me_perft_nodes:-}" ] || [ -z "${me_nps:-}" ]; then
    echo "note: could not parse menagerie's output; raw:"
    echo "$me_perft_out" | tail -n 5
    echo "$me_bench" | tail -n 5
fi
