#!/usr/bin/env python3
"""Draw Mutatis Mutandis's instructions a node along issue 59 (docs/speed-mutatis.png).

Input: a CSV with the columns commit, step, nodes, instructions, one row per build, in order
(docs/speed/mutatis-instructions.csv). Each row is callgrind's program total of
`menagerie bench --variant mutatismutandis --eval-file '<none>'` for that commit's release
build (`7f7d81a`, which has no network, without the option):

    valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        target/release/menagerie bench --variant mutatismutandis --eval-file '<none>'

Instruction counts do not depend on the machine's load; time does, and it fell less than the
instructions (mispredicted branches, stack probes, fresh pages, memory latency:
docs/experiments.md), so the picture is not the issue's measure of 3x in time. The rows stop
at `1fa75bb`: from `d836c25` the TT clears are one C-library fill, whose `rep stosb` valgrind
counts byte by byte, so the program totals no longer compare.

With --nps, draws instead the nodes per second along the builds (docs/speed-mutatis-nps.png),
the measure of the issue's target: a CSV with the columns commit, step, median, low, high, as
scripts/nps_along.sh writes it from one set of alternating runs (docs/speed/mutatis-nps.csv).

Usage:
    python3 scripts/plot_speed.py docs/speed/mutatis-instructions.csv --out docs/speed-mutatis.png
    python3 scripts/plot_speed.py --nps docs/speed/mutatis-nps.csv --out docs/speed-mutatis-nps.png

Requirements: scripts/requirements-plots.txt. Exit status 1, with one message, on a file that
is not such a CSV.
"""

import argparse
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read_rows(path):
    """The (commit, step, instructions a node) rows of `path`."""
    rows = []
    with open(path, newline="") as f:
        for i, r in enumerate(csv.DictReader(f), start=2):
            try:
                per_node = int(r["instructions"]) / int(r["nodes"])
                rows.append((r["commit"], r["step"], per_node))
            except (KeyError, TypeError, ValueError, ZeroDivisionError):
                raise ValueError(f"{path}:{i}: want commit,step,nodes,instructions") from None
    if not rows:
        raise ValueError(f"{path}: no rows")
    return rows


def read_nps_rows(path):
    """The (commit, step, median, low, high) rows of `path`, nodes a second."""
    rows = []
    with open(path, newline="") as f:
        for i, r in enumerate(csv.DictReader(f), start=2):
            try:
                rows.append((r["commit"], r["step"], int(r["median"]), int(r["low"]),
                             int(r["high"])))
            except (KeyError, TypeError, ValueError):
                raise ValueError(f"{path}:{i}: want commit,step,median,low,high") from None
    if not rows:
        raise ValueError(f"{path}: no rows")
    return rows


def plot_nps(rows, out):
    """Medians with the lowest and highest run as a bar, in thousands of nodes a second."""
    xs = range(len(rows))
    med = [r[2] / 1000 for r in rows]
    low = [(r[2] - r[3]) / 1000 for r in rows]
    high = [(r[4] - r[2]) / 1000 for r in rows]
    fig, ax = plt.subplots(figsize=(10, 5.5))
    ax.errorbar(xs, med, yerr=[low, high], marker="o", color="#2a6f97", capsize=3)
    for x, y in zip(xs, med):
        ax.annotate(f"{y:.0f}k", (x, y), textcoords="offset points", xytext=(8, -12),
                    fontsize=8)
    # The base: the fastest row of the first commit (its bench as is, or patched).
    first = rows[0][0].split()[0]
    base = max(r[2] for r in rows if r[0].split()[0] == first) / 1000
    ax.axhline(3 * base, color="#c0392b", linestyle="--", linewidth=1)
    ax.annotate(f"3x {first} ({3 * base:.0f}k)", (0, 3 * base), textcoords="offset points",
                xytext=(0, 4), fontsize=8, color="#c0392b")
    ax.set_xticks(list(xs))
    ax.set_xticklabels([f"{r[0]}\n{r[1]}" for r in rows], rotation=60, ha="right", fontsize=7)
    ax.set_ylabel("thousands of nodes a second\n(median; bar: lowest to highest run)")
    ax.set_ylim(0, max(r[4] for r in rows) / 1000 * 1.12)
    ax.set_title("Mutatis Mutandis bench, hand-written evaluation: nodes a second "
                 f"({med[-1] / base:.2f}x {first})")
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print(f"wrote {out}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv", nargs="?", help="instructions CSV")
    ap.add_argument("--nps", help="nodes-per-second CSV (scripts/nps_along.sh) instead")
    ap.add_argument("--out", default="docs/speed-mutatis.png")
    args = ap.parse_args()
    if (args.csv is None) == (args.nps is None):
        print("error: give an instructions CSV or --nps CSV, one of them", file=sys.stderr)
        return 1
    try:
        if args.nps:
            plot_nps(read_nps_rows(args.nps), args.out)
            return 0
        rows = read_rows(args.csv)
    except (OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    xs = range(len(rows))
    ys = [r[2] / 1000 for r in rows]
    fig, ax = plt.subplots(figsize=(10, 5.5))
    ax.plot(xs, ys, marker="o", color="#2a6f97")
    for x, y in zip(xs, ys):
        ax.annotate(f"{y:.1f}k", (x, y), textcoords="offset points", xytext=(0, 7),
                    ha="center", fontsize=8)
    ax.set_xticks(list(xs))
    ax.set_xticklabels([f"{c}\n{s}" for c, s, _ in rows], rotation=60, ha="right",
                       fontsize=7)
    ax.set_ylabel("callgrind instructions a node (thousands)")
    ax.set_ylim(0, max(ys) * 1.12)
    ax.set_title("Mutatis Mutandis bench, hand-written evaluation: instructions a node "
                 f"({ys[0] / ys[-1]:.2f}x fewer)")
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
