#!/usr/bin/env python3
"""Draw chess's UCI_Elo calibration: the Elo each setting asked for against the Elo it measured
against Stockfish, with 95% intervals, the diagonal and the +-75 Elo band of issue 58.

Each input is the --json result of one `scripts/calibrate_elo.sh` match (menagerie first,
Stockfish second), optionally followed by `=ELO`: the UCI_Elo that plays the measured level
under today's table, for a match that ran with `Skill Level` or under an earlier table. A setting's measured Elo is Stockfish's UCI_Elo plus the match's Elo
difference; its interval is the runner's 95% interval moved the same way. Nothing is computed
here that the runner did not print.

Usage:
    python3 scripts/plot_elo_calibration.py calibration/elo-*.json [level9.json=1800] \\
        --out docs/elo-calibration.png

Requirements: scripts/requirements-plots.txt. Exit status 1, with one message, on a file that
is not such a result.
"""

import argparse
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def option(engine, name):
    for key, value in engine["options"]:
        if key == name:
            return int(value)
    raise ValueError(f"engine {engine['name']} has no {name} option")


def point(arg):
    """(asked Elo, Stockfish Elo, low, estimate, high, games) of one `FILE[=ELO]` argument."""
    path, _, asked = arg.partition("=")
    with open(path) as f:
        result = json.load(f)
    if result.get("format") != "menagerie-match-result 1":
        raise ValueError(f"{path}: not a menagerie match result")
    ours, theirs = result["settings"]["engines"]
    lo, est, hi = result["stats"]["elo"]
    wdl = result["wdl"]
    games = wdl["wins"] + wdl["draws"] + wdl["losses"]
    asked = int(asked) if asked else option(ours, "UCI_Elo")
    return asked, option(theirs, "UCI_Elo"), lo, est, hi, games


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results", nargs="+")
    ap.add_argument("--out", required=True)
    ap.add_argument("--band", type=float, default=75.0, help="half-width of the band, Elo")
    args = ap.parse_args()
    try:
        points = sorted(point(p) for p in args.results)
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(1)
    fig, ax = plt.subplots(figsize=(6.4, 5.2))
    lo_x = min(min(p[0], p[1] + p[2]) for p in points) - 100
    hi_x = max(max(p[0], p[1] + p[4]) for p in points) + 100
    ax.plot([lo_x, hi_x], [lo_x, hi_x], color="grey", lw=1, label="measured = asked")
    ax.fill_between(
        [lo_x, hi_x],
        [lo_x - args.band, hi_x - args.band],
        [lo_x + args.band, hi_x + args.band],
        color="grey",
        alpha=0.15,
        label=f"+-{args.band:.0f} Elo",
    )
    for asked, sf, lo, est, hi, games in points:
        label = f"{asked} (against {sf}, {games} games)"
        ax.errorbar(
            [asked],
            [sf + est],
            yerr=[[est - lo], [hi - est]],
            fmt="o",
            capsize=4,
            label=label,
        )
    ax.set_xlabel("UCI_Elo asked of menagerie")
    ax.set_ylabel("measured Elo (Stockfish 15.1's UCI_Elo + difference)")
    ax.set_title("Chess UCI_Elo against Stockfish 15.1, 10+0.1, 95% intervals")
    ax.set_xlim(lo_x, hi_x)
    ax.set_ylim(lo_x, hi_x)
    ax.legend(fontsize=7, loc="upper left")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)


if __name__ == "__main__":
    main()
