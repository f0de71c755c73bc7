#!/usr/bin/env python3
"""Fit the win/draw/loss model of UCI_ShowWDL (src/variants/mod.rs, WdlModel) to games.

The model gives the chances of the side to move at a score of x centipawns (its own view):

    W = 1 / (1 + exp((a - x) / b)),  L = 1 / (1 + exp((a + x) / b)),  D = 1 - W - L

and this script finds the a and b that make the games' results most likely (maximum
likelihood over every scored turn, Nelder-Mead in pure Python: no numpy needed).

Input: PGN files written by `menagerie match --pgn`, whose turns carry `{+0.25/12 0.105s}`
comments (the mover's score in pawns, `+M3`/`-M3` for mates). Book turns (`{book}`), mate
scores, scores beyond +-20 pawns and games that did not end by rule or adjudication (time
forfeits, illegal moves, crashes) are left out. Every turn of a game counts with that game's
result seen from its mover.

The figures in the source were fitted (2026-11-29, main at 35f0b16) to self-play at 4000 nodes
a turn, 200 games per variant from a 200-opening book, on a release build:

    for v in $(target/release/menagerie variants); do
      target/release/menagerie book --variant $v --count 200 --plies 8 --seed 55 \
        --out /tmp/wdl/book-$v.epd
      target/release/menagerie match --engine "target/release/menagerie name=a" \
        --engine "target/release/menagerie name=b" --variant $v --games 200 --nodes 4000 \
        --openings /tmp/wdl/book-$v.epd --max-turns 400 --seed 1 --pgn /tmp/wdl/$v.pgn
    done
    python3 scripts/fit_wdl.py /tmp/wdl/*.pgn          # one fit per Variant tag

Output: per variant, the number of games and samples, a and b, the Rust constant to paste
into the variant's `impl Game` (`const WDL: WdlModel = ...`), and observed against predicted
W/D/L by score bucket.
"""

import argparse
import math
import re
import sys
from collections import defaultdict

SCORE = re.compile(r"^([+-])(M?)(\d+(?:\.\d+)?)/\d+ [\d.]+s$")
TIME_ONLY = re.compile(r"^[\d.]+s$")


def games(path):
    """Yields (tags, movetext) for each game of a PGN file."""
    tags, moves, in_moves = {}, [], False
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("["):
                if in_moves:
                    yield tags, " ".join(moves)
                    tags, moves, in_moves = {}, [], False
                m = re.match(r'\[(\w+) "(.*)"\]', line)
                if m:
                    tags[m.group(1)] = m.group(2)
            elif line.strip():
                in_moves = True
                moves.append(line)
    if tags:
        yield tags, " ".join(moves)


def samples(tags, text):
    """(score in cp for the mover, result for the mover: 1, 0.5 or 0) of each scored turn."""
    result = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(tags.get("Result"))
    if result is None:
        return []
    if tags.get("Termination", "normal") not in ("normal", "adjudication"):
        return []
    fen = tags.get("FEN", "")
    fields = fen.split()
    white_first = len(fields) < 2 or fields[1] != "b"
    out = []
    turn = 0
    for comment in re.findall(r"\{([^}]*)\}", text):
        comment = comment.strip()
        m = SCORE.match(comment)
        if not (m or comment == "book" or TIME_ONLY.match(comment)):
            continue  # the closing reason, e.g. {checkmate}
        white_moves = (turn % 2 == 0) == white_first
        turn += 1
        if not m or m.group(2) == "M":
            continue
        cp = float(m.group(3)) * 100 * (1 if m.group(1) == "+" else -1)
        if abs(cp) > 2000:
            continue
        out.append((cp, result if white_moves else 1.0 - result))
    return out


def probs(a, b, x):
    w = 1 / (1 + math.exp(min(700, (a - x) / b)))
    l = 1 / (1 + math.exp(min(700, (a + x) / b)))
    return w, max(1e-9, 1 - w - l), l


def nll(params, data):
    a, b = params
    if a < 0 or b < 1:
        return 1e18
    total = 0.0
    for x, r in data:
        w, d, l = probs(a, b, x)
        p = w if r == 1.0 else l if r == 0.0 else d
        total -= math.log(max(p, 1e-12))
    return total


def nelder_mead(f, start, step, iterations=300):
    pts = [list(start)] + [
        [s + (step[i] if i == j else 0) for i, s in enumerate(start)] for j in range(len(start))
    ]
    vals = [f(p) for p in pts]
    for _ in range(iterations):
        order = sorted(range(len(pts)), key=lambda i: vals[i])
        pts = [pts[i] for i in order]
        vals = [vals[i] for i in order]
        centroid = [sum(p[i] for p in pts[:-1]) / (len(pts) - 1) for i in range(len(start))]
        worst = pts[-1]
        refl = [c + (c - w) for c, w in zip(centroid, worst)]
        fr = f(refl)
        if fr < vals[0]:
            exp = [c + 2 * (c - w) for c, w in zip(centroid, worst)]
            fe = f(exp)
            pts[-1], vals[-1] = (exp, fe) if fe < fr else (refl, fr)
        elif fr < vals[-2]:
            pts[-1], vals[-1] = refl, fr
        else:
            con = [c + 0.5 * (w - c) for c, w in zip(centroid, worst)]
            fc = f(con)
            if fc < vals[-1]:
                pts[-1], vals[-1] = con, fc
            else:
                best = pts[0]
                pts = [best] + [[b + 0.5 * (p - b) for b, p in zip(best, q)] for q in pts[1:]]
                vals = [vals[0]] + [f(p) for p in pts[1:]]
    i = min(range(len(pts)), key=lambda i: vals[i])
    return pts[i], vals[i]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pgn", nargs="+", help="PGN files from menagerie match --pgn")
    args = ap.parse_args()
    by_variant = defaultdict(list)
    counts = defaultdict(int)
    for path in args.pgn:
        for tags, text in games(path):
            s = samples(tags, text)
            if s:
                v = tags.get("Variant", "chess")
                by_variant[v].extend(s)
                counts[v] += 1
    if not by_variant:
        sys.exit("no scored turns found")
    for v in sorted(by_variant):
        data = by_variant[v]
        (a, b), value = nelder_mead(lambda p: nll(p, data), (150.0, 100.0), (50.0, 40.0))
        print(f"{v}: {counts[v]} games, {len(data)} scored turns: a = {a:.1f} cp, b = {b:.1f} cp"
              f" (mean log-likelihood {-value / len(data):.4f})")
        print(f"    const WDL: WdlModel = WdlModel {{ a: {a:.0f}.0, b: {b:.0f}.0 }};")
        buckets = defaultdict(lambda: [0, 0, 0])
        for x, r in data:
            k = int(max(-600, min(600, x)) // 100) * 100
            buckets[k][0 if r == 1.0 else 1 if r == 0.5 else 2] += 1
        print("    score bucket   n     observed W/D/L %    model W/D/L %")
        for k in sorted(buckets):
            w, d, l = buckets[k]
            n = w + d + l
            pw, pd, pl = probs(a, b, k + 50)
            print(f"    [{k:+5}, {k + 100:+5}) {n:5}   {100 * w / n:5.1f} {100 * d / n:5.1f} {100 * l / n:5.1f}"
                  f"   {100 * pw:5.1f} {100 * pd:5.1f} {100 * pl:5.1f}")


if __name__ == "__main__":
    main()
