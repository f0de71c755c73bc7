#!/usr/bin/env python3
"""Draw a match's course: the first engine's Elo with its 95% interval, and the SPRT's LLR
with its bounds, against the games played.

The numbers are the runner's own: `menagerie match curve FILE...` (the --json results of one
match, or of its shards, merged) prints them pair by pair as CSV; this script only draws them.

Usage:
    python3 scripts/plot_match.py result.json [shard2.json ...] --out docs/match.png \\
        [--menagerie target/release/menagerie] [--title "..."]

Requirements: scripts/requirements-plots.txt (pip install -r scripts/requirements-plots.txt).
Writes PNG or SVG, by the extension of --out. Exit status 1, with one message, when the runner
refuses the files.
"""

import argparse
import csv
import io
import json
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def curve(menagerie, files):
    """The rows of `menagerie match curve` as dicts of floats (None where empty)."""
    done = subprocess.run(
        [menagerie, "match", "curve", *files], capture_output=True, text=True
    )
    if done.returncode != 0:
        sys.exit(done.stderr.strip() or f"menagerie match curve failed ({done.returncode})")
    rows = []
    for row in csv.DictReader(io.StringIO(done.stdout)):
        rows.append({k: (float(v) if v != "" else None) for k, v in row.items()})
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="+", help="menagerie match --json result files")
    ap.add_argument("--out", required=True, help="picture to write (.png or .svg)")
    ap.add_argument("--menagerie", default="target/release/menagerie")
    ap.add_argument("--title", default=None)
    args = ap.parse_args()

    rows = curve(args.menagerie, args.files)
    if not rows:
        sys.exit("no complete pair in the result files: nothing to draw")
    with open(args.files[0]) as f:
        first = json.load(f)
    engines = [e["name"] for e in first["settings"]["engines"]]
    sprt = first["settings"].get("sprt")
    bounds = first.get("sprt")

    games = [r["games"] for r in rows]
    with_elo = [r for r in rows if r["elo"] is not None]
    panels = 2 if sprt else 1
    fig, axes = plt.subplots(panels, 1, figsize=(8, 3.2 * panels), sharex=True, squeeze=False)
    ax = axes[0][0]
    if with_elo:
        g = [r["games"] for r in with_elo]
        # Infinite interval ends (a 0% or 100% score) are drawn at the plot's edge.
        finite = [v for r in with_elo for v in (r["elo_low"], r["elo_high"]) if abs(v) != float("inf")]
        edge = max([abs(v) for v in finite] + [abs(r["elo"]) for r in with_elo] + [10.0]) * 1.1
        lo = [max(r["elo_low"], -edge) for r in with_elo]
        hi = [min(r["elo_high"], edge) for r in with_elo]
        ax.fill_between(g, lo, hi, alpha=0.25, label="95% interval")
        ax.plot(g, [r["elo"] for r in with_elo], label="Elo")
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_ylabel(f"Elo of {engines[0]}\nagainst {engines[1]}")
    ax.legend(loc="upper right")
    last = rows[-1]
    summary = f"{int(last['games'])} games"
    if last["elo"] is not None:
        summary += f": {last['elo']:+.1f} [{last['elo_low']:+.1f}, {last['elo_high']:+.1f}]"
    ax.set_title(args.title or f"{first['settings']['variant']}: {summary}")
    if sprt:
        ax = axes[1][0]
        ax.plot(games, [r["llr"] for r in rows], label="LLR")
        if bounds:
            for b in (bounds["lower"], bounds["upper"]):
                ax.axhline(b, color="grey", linestyle="--", linewidth=0.8)
        ax.set_ylabel(f"LLR, SPRT [{sprt['elo0']:g}, {sprt['elo1']:g}]")
        ax.legend(loc="upper right")
    axes[-1][0].set_xlabel("games")
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    print(f"{args.out}: {len(rows)} pairs drawn")


if __name__ == "__main__":
    main()
