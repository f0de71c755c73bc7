#!/usr/bin/env python3
"""Which chess evaluation terms Stockfish weighs differently: a least-squares fit of
Stockfish's scores of positions from PGNs on menagerie's evaluation terms.

For every position after the tenth ply of each game (not in check, game not over), Stockfish
searches to `--depth` and gives its score (White's view, centipawns) and best move; positions
with a mate score, a capture or promotion as the best move (not quiet), or a score beyond
+-800 are left out. menagerie's `eval` command gives each term's middlegame and endgame total
(White minus Black), the phase and the endgame scale. The script then fits

    stockfish ~ sum over terms of (a_t * mg_t * phase / 24 + b_t * eg_t * (24 - phase) / 24 * scale / 64)

and prints, per term, a_t and b_t divided by the single factor g of the fit
`stockfish ~ g * menagerie's total`: a term at x1.00 is weighed as the whole evaluation is; at
x2.0, Stockfish's scores move twice as much with it. Also printed: the correlation of the two
evaluations and the residuals of both fits.

Read the factors as hints, not as values to set: the positions come from the games given, the
terms are correlated (material with piece-square tables, mobility with threats), and a static
evaluation is compared with a search. Measured: on 15,905 quiet positions of 160 games against
Stockfish UCI_Elo 2400 (depth 10, about three minutes on two cores) mobility came out at x2.7
(middlegame) and x2.0 (endgame); chess with mobility weights 1.5 times main's then scored
-15.6 Elo [-38.7, +7.2] against main (400 games at 1+0.01), so the hint did not carry over.

Setup: apt-get install stockfish; pip install chess numpy; cargo build --release. Run by hand;
the test command does not need it.
Usage:  scripts/eval_term_fit.py games.pgn [more.pgn ...] [--depth 10] [--labels cache.json]
            [--engine target/release/menagerie] [--stockfish /usr/games/stockfish] [--jobs 2]
`--labels` keeps Stockfish's scores in a file and reads them back on the next run (the same
PGNs and depth).
"""

import argparse
import json
import os
import subprocess
import sys
from multiprocessing import Pool

try:
    import chess
    import chess.engine
    import chess.pgn
    import numpy as np
except ImportError:
    sys.exit("python-chess or numpy is missing: pip install chess numpy")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
META = ("scale", "phase", "final")


def positions(pgns):
    """FENs of the positions after ply 10 of every game, not in check and not over."""
    out = []
    for path in pgns:
        if not os.path.isfile(path):
            sys.exit(f"no such PGN: {path}")
        with open(path) as f:
            while (game := chess.pgn.read_game(f)) is not None:
                board = game.board()
                for i, move in enumerate(game.mainline_moves()):
                    board.push(move)
                    if i >= 10 and not board.is_check() and not board.is_game_over():
                        out.append(board.fen())
    return out


def label(job):
    """Stockfish's (score, tactical best move) per FEN; None for a mate score."""
    stockfish, depth, fens = job
    engine = chess.engine.SimpleEngine.popen_uci(stockfish)
    engine.configure({"Hash": 64, "Threads": 1})
    out = []
    for fen in fens:
        board = chess.Board(fen)
        info = engine.analyse(board, chess.engine.Limit(depth=depth))
        score = info["score"].white()
        if score.is_mate():
            out.append(None)
            continue
        pv = info.get("pv") or []
        tactical = bool(pv) and (board.is_capture(pv[0]) or pv[0].promotion is not None)
        out.append([score.score(), tactical])
    engine.quit()
    return out


def terms(engine, fens):
    """Per FEN, menagerie's term totals {name: (mg, eg)} plus phase, scale and final score."""
    proc = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    proc.stdin.write("uci\n")
    for fen in fens:
        proc.stdin.write(f"position fen {fen}\neval\n")
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    out, cur = [], {}
    for line in proc.stdout:
        cells = line.split("|")
        if len(cells) == 4:
            name, total = cells[0].strip(), cells[3].split()
            if name not in ("Term", "Total", "") and len(total) == 3:
                cur[name] = (int(total[0]), int(total[1]))
        elif line.startswith("Endgame scale:"):
            cur["scale"] = int(line.split()[2].split("/")[0])
        elif line.startswith("Phase:"):
            cur["phase"] = int(line.split()[1].split("/")[0])
        elif line.startswith("Final evaluation:"):
            cur["final"] = int(line.split()[2])
            out.append(cur)
            cur = {}
    proc.wait()
    if len(out) != len(fens):
        sys.exit(f"{engine} evaluated {len(out)} of {len(fens)} positions")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("--depth", type=int, default=10)
    ap.add_argument("--labels", help="cache of Stockfish's scores (JSON)")
    ap.add_argument("--engine", default=os.path.join(ROOT, "target/release/menagerie"))
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()

    if a.labels and os.path.exists(a.labels):
        with open(a.labels) as f:
            data = json.load(f)
    else:
        fens = positions(a.pgn)
        if not fens:
            sys.exit("no positions in the PGNs given")
        print(f"{len(fens)} positions; Stockfish depth {a.depth}...", file=sys.stderr)
        chunks = [fens[i :: a.jobs] for i in range(a.jobs)]
        with Pool(a.jobs) as pool:
            labels = pool.map(label, [(a.stockfish, a.depth, c) for c in chunks])
        data = [[f, x] for c, ls in zip(chunks, labels) for f, x in zip(c, ls)]
        if a.labels:
            with open(a.labels, "w") as f:
                json.dump(data, f)

    data = [(f, x[0]) for f, x in data if x is not None and not x[1] and abs(x[0]) < 800]
    if len(data) < 100:
        sys.exit(f"only {len(data)} quiet positions: too few to fit")
    table = terms(a.engine, [f for f, _ in data])
    names = [n for n in table[0] if n not in META]
    rows = []
    for t in table:
        ph, scale = t["phase"], t["scale"]
        row = []
        for n in names:
            mg, eg = t[n]
            row += [mg * ph / 24, eg * (24 - ph) / 24 * scale / 64]
        rows.append(row)
    x = np.array(rows, float)
    y = np.array([s for _, s in data], float)
    ours = x.sum(axis=1)
    g = (ours @ y) / (ours @ ours)
    coef, *_ = np.linalg.lstsq(x, y, rcond=None)
    print(f"{len(y)} quiet positions; correlation of the evaluations {np.corrcoef(ours, y)[0, 1]:.3f}")
    print(f"one factor: stockfish ~ {g:.3f} x menagerie, rms residual {np.sqrt(np.mean((y - g * ours) ** 2)):.1f} cp")
    print(f"per term: rms residual {np.sqrt(np.mean((y - x @ coef) ** 2)):.1f} cp")
    print(f"{'term':>12}   middlegame (sd cp)   endgame (sd cp)")
    for i, n in enumerate(names):
        print(
            f"{n:>12}   x{coef[2 * i] / g:6.2f} ({x[:, 2 * i].std():6.1f})"
            f"   x{coef[2 * i + 1] / g:6.2f} ({x[:, 2 * i + 1].std():6.1f})"
        )


if __name__ == "__main__":
    main()
