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

Usage:
    python3 scripts/plot_speed.py docs/speed/mutatis-instructions.csv --out docs/speed-mutatis.png

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


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("--out", default="docs/speed-mutatis.png")
    args = ap.parse_args()
    try:
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
