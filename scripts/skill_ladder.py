#!/usr/bin/env python3
"""Measure the `Skill Level` ladder of every variant: each level against the next one up.

For each variant, adjacent levels of --levels (default 0 5 10 15 20) play one `menagerie match`
at a fixed time per move (--movetime milliseconds), the higher level first, from a book of
--games / 2 openings (`menagerie book --variant V --count ... --plies 8 --seed S`), colours
reversed in pairs. Each step's Elo is the runner's (the higher level's score against the lower),
with its 95% interval. A level's Elo relative to full strength (the top level) is the sum of the
steps above it, negated; its interval adds the steps' variances (each step's half-width / 1.96
taken as its standard error), since the matches are independent.

A step named by --more is played as its own match of that many games instead (a step whose
--games match left its interval across 0, measured again at a larger size; both files stay).

Writes, under --out: <variant>-<high>-<low>.json (the match results, written as they are made;
a result already there is read instead of played again, so an interrupted run resumes at
the step it was playing, which starts again; the runner's own file of that step is
<name>.json.part, kept until it is complete),
ladder.md (the tables) and ladder.png (levels against Elo, one line per variant).

Requirements: scripts/requirements-plots.txt, and a release build.
Usage:
    python3 scripts/skill_ladder.py --out /tmp/ladder [--variants mystic muster] \\
        [--games 100] [--movetime 50] [--levels 0 5 10 15 20] [--concurrency 2] \\
        [--menagerie target/release/menagerie]
Exit status 1, with the runner's message, when a match fails.
"""

import argparse
import json
import math
import os
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def run(cmd):
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)}\nfailed ({done.returncode}): {done.stderr.strip()}")
    return done.stdout


def make_book(args, variant, games):
    """The book of a match of `games` games (one opening a pair), made once under --out."""
    suffix = "" if games == args.games else f"-{games}"
    book = os.path.join(args.out, f"book-{variant}{suffix}.epd")
    if not os.path.exists(book):
        run([args.menagerie, "book", "--variant", variant, "--count", str(max(1, games // 2)),
             "--plies", "8", "--seed", str(args.seed + (0 if games == args.games else games)),
             "--out", book])
    return book


def step(args, variant, high, low, games):
    """The match of level `high` against level `low`: (wins, draws, losses, elo, lo, hi)."""
    book = make_book(args, variant, games)
    suffix = "" if games == args.games else f"-g{games}"
    path = os.path.join(args.out, f"{variant}-{high}-{low}{suffix}.json")
    if not os.path.exists(path) and args.report_only:
        return None
    if not os.path.exists(path):
        engine = args.menagerie
        run([
            engine, "match",
            "--engine", f"{engine} option.Skill Level={high} name=level{high}",
            "--engine", f"{engine} option.Skill Level={low} name=level{low}",
            "--variant", variant, "--games", str(games),
            "--movetime", str(args.movetime), "--openings", book,
            "--concurrency", str(args.concurrency), "--seed", str(args.seed),
            "--json", path + ".part",
        ])
        os.replace(path + ".part", path)
    with open(path) as f:
        result = json.load(f)
    wdl = result["wdl"]
    w, d, l = wdl["wins"], wdl["draws"], wdl["losses"]
    lo, mid, hi = result["stats"]["elo"]
    score = result["stats"]["score"]
    if lo is None and 0.0 < score < 1.0:
        # No spread between pairs (only in tiny runs): the score's Elo, without an interval.
        mid = 400.0 * math.log10(score / (1.0 - score))
        return w, d, l, mid, mid, mid
    if mid is None:
        # A clean sweep has no finite Elo: take the one-sided 95% bound of the score instead
        # (every game won with probability p is 5% likely at p = 0.05 ** (1 / n)).
        n = w + d + l
        p = 0.05 ** (1.0 / n)
        bound = 400.0 * math.log10(p / (1.0 - p))
        sign = 1.0 if w > l else -1.0
        return w, d, l, sign * bound, None, sign
    # An interval open at one end (a score near 100%) is infinite at that end.
    return w, d, l, mid, lo if lo is not None else -math.inf, hi if hi is not None else math.inf


def fmt(elo, lo, hi):
    """A step's Elo as the tables print it."""
    if lo is None:
        return f"{'at least' if hi > 0 else 'at most'} {elo:+.0f} (every game won)"
    return f"{elo:+.1f} [{lo:+.1f}, {hi:+.1f}]"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True, help="directory of results, tables and picture")
    ap.add_argument("--variants", nargs="*", default=None, help="default: every variant")
    ap.add_argument("--levels", nargs="+", type=int, default=[0, 5, 10, 15, 20])
    ap.add_argument("--games", type=int, default=100, help="games per step (even)")
    ap.add_argument("--movetime", type=int, default=50, help="milliseconds per move")
    ap.add_argument("--more", nargs="*", default=[], metavar="V:HIGH:LOW=GAMES",
                    help="steps played with more games (their own match and book, seed "
                         "--seed + GAMES), in place of the --games match")
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--seed", type=int, default=55, help="seed of the books and the runner")
    ap.add_argument("--menagerie", default="target/release/menagerie")
    ap.add_argument("--report-only", action="store_true",
                    help="play nothing: tables and picture from the results under --out (a "
                         "level below a step not yet played is left out)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    variants = args.variants or run([args.menagerie, "variants"]).split()
    levels = sorted(args.levels)
    more = {}
    for spec in args.more:
        key, games = spec.split("=")
        v, high, low = key.split(":")
        more[(v, int(high), int(low))] = int(games)

    tables, ladders = [], {}
    for v in variants:
        steps, first_runs, unplayed = [], {}, []
        for low, high in zip(levels, levels[1:]):
            games = more.get((v, high, low), args.games)
            if games != args.games:
                # The --games match of a step measured again is shown beside it.
                saved, args.report_only = args.report_only, True
                first_runs[(high, low)] = step(args, v, high, low, args.games)
                args.report_only = saved
            result = step(args, v, high, low, games)
            if result is None:
                if first_runs.get((high, low)) is not None:
                    unplayed.append((high, low, games))
                continue
            w, d, l, elo, lo, hi = result
            steps.append((high, low, w, d, l, elo, lo, hi))
            print(f"{v}: level {high} vs {low}: {w}-{d}-{l}, {fmt(elo, lo, hi)}", flush=True)
        if not steps:
            continue
        # Each level relative to the top: minus the sum of the steps above it. Below a clean
        # sweep the sum is only an upper bound (the step counted at its lower bound).
        rel = {levels[-1]: (0.0, 0.0, False)}
        total, var, bounded = 0.0, 0.0, False
        for high, low, w, d, l, elo, lo, hi in reversed(steps):
            if high not in rel:
                break  # a step above it not played yet
            total -= elo
            if lo is None:
                bounded = True
            else:
                # An interval open at one end is taken as mirrored about the estimate.
                half = min(hi - elo, elo - lo)
                var += (half / 1.96) ** 2
            rel[low] = (total, 1.96 * math.sqrt(var), bounded)
        ladders[v] = rel
        rows = [f"### {v}", "",
                "| step | games | W-D-L (higher level first) | Elo of the step, 95% interval |",
                "|---|---|---|---|"]
        for high, low, w, d, l, elo, lo, hi in steps:
            first = first_runs.get((high, low))
            if first is not None:
                fw, fd, fl, felo, flo, fhi = first
                rows.append(f"| {high} vs {low} (first run) | {fw + fd + fl} | {fw}-{fd}-{fl} | "
                            f"{fmt(felo, flo, fhi)} |")
            rows.append(f"| {high} vs {low} | {w + d + l} | {w}-{d}-{l} | "
                        f"{fmt(elo, lo, hi)} |")
        for high, low, games in unplayed:
            fw, fd, fl, felo, flo, fhi = first_runs[(high, low)]
            rows.append(f"| {high} vs {low} (first run; {games} games to come) | {fw + fd + fl} "
                        f"| {fw}-{fd}-{fl} | {fmt(felo, flo, fhi)} |")
        rows += ["", f"| level | Elo relative to level {levels[-1]} | 95% interval |",
                 "|---|---|---|"]
        for lv in levels:
            if lv not in rel:
                rows.append(f"| {lv} | not measured yet | |")
                continue
            r, h, b = rel[lv]
            value = f"at most {r:+.0f}" if b else f"{r:+.0f}"
            rows.append(f"| {lv} | {value} | " + ("-" if h == 0 else f"±{h:.0f}") + " |")
        tables.append("\n".join(rows))

    with open(os.path.join(args.out, "ladder.md"), "w") as f:
        f.write(f"Skill ladder: {args.games} games per step at {args.movetime} ms per move, "
                f"book seed {args.seed}.\n\n" + "\n\n".join(tables) + "\n")
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for i, v in enumerate(ladders):
        shown = [lv for lv in levels if lv in ladders[v]]
        xs = [lv + (i - len(ladders) / 2) * 0.12 for lv in shown]
        ys = [ladders[v][lv][0] for lv in shown]
        es = [ladders[v][lv][1] for lv in shown]
        line = ax.errorbar(xs, ys, yerr=es, marker="o", capsize=3, label=v)
        # Upper bounds (below a clean sweep) get a downward triangle.
        for x, lv in zip(xs, shown):
            if ladders[v][lv][2]:
                ax.plot([x], [ladders[v][lv][0]], marker="v", markersize=10,
                        color=line[0].get_color())
    ax.set_xticks(levels)
    ax.set_xlabel("Skill Level")
    ax.set_ylabel(f"Elo relative to level {levels[-1]}")
    ax.set_title(f"Skill ladder: {args.games} games a step, {args.movetime} ms a move "
                 "(95% intervals; ▼ at most)")
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(args.out, "ladder.png"), dpi=110)
    print(f"{args.out}/ladder.md, {args.out}/ladder.png written")


if __name__ == "__main__":
    main()
