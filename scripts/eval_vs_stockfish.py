#!/usr/bin/env python3
"""Compare menagerie's static evaluation with Stockfish's on the positions of PGN games.

Sends `position fen ...` and `eval` to both engines for every position of the games (skipping
positions in check, where Stockfish prints no evaluation) and prints the correlation, the
least-squares scale between the two and the positions where they disagree most. A sanity
check of the evaluation's sign and magnitude, not a measure of strength.

Setup: apt-get install stockfish; pip install chess; cargo build --release.
Usage:  scripts/eval_vs_stockfish.py games.pgn [--max 300] [--engine ...] [--stockfish ...]
(Use the PGN written by play_vs_stockfish.py.)
"""

import argparse
import math
import os
import re
import subprocess
import sys

try:
    import chess
    import chess.pgn
except ImportError:
    sys.exit("python-chess is missing: pip install chess")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Engine:
    """A bare line-based engine process (python-chess has no `eval` command)."""

    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait_for("uciok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait_for(self, token):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine exited")
            lines.append(line.rstrip("\n"))
            if line.startswith(token):
                return lines

    def eval_lines(self, fen):
        self.send(f"position fen {fen}")
        self.send("eval")
        self.send("isready")
        return self.wait_for("readyok")

    def close(self):
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def stockfish_cp(lines):
    """White-view centipawns from Stockfish 15.1's `Final evaluation +0.25 (white side)`."""
    for line in lines:
        m = re.match(r"\s*Final evaluation\s+([+-]?\d+(\.\d+)?)", line)
        if m:
            return round(float(m.group(1)) * 100)
    return None


def menagerie_cp(lines):
    """White-view centipawns from menagerie's `Final evaluation: N cp (White's view)`."""
    for line in lines:
        m = re.search(r"Final evaluation:\s*([+-]?\d+) cp \(White", line)
        if m:
            return int(m.group(1))
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pgn")
    ap.add_argument("--max", type=int, default=300, help="at most this many positions (default 300)")
    ap.add_argument("--engine", default=os.path.join(ROOT, "target", "release", "menagerie"))
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    args = ap.parse_args()

    fens = []
    with open(args.pgn) as f:
        while len(fens) < args.max:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            board = game.board()
            for move in game.mainline_moves():
                board.push(move)
                if not board.is_check() and not board.is_game_over():
                    fens.append(board.fen())
    fens = fens[: args.max]
    if not fens:
        sys.exit("no positions")

    me, sf = Engine(args.engine), Engine(args.stockfish)
    pairs = []
    for fen in fens:
        a, b = menagerie_cp(me.eval_lines(fen)), stockfish_cp(sf.eval_lines(fen))
        if a is not None and b is not None:
            pairs.append((fen, a, b))
    me.close()
    sf.close()
    if len(pairs) < 2:
        sys.exit(f"could not read evaluations ({len(pairs)} pairs); is `eval` implemented?")

    xs = [a for _, a, _ in pairs]
    ys = [b for _, _, b in pairs]
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    r = sxy / math.sqrt(sxx * syy) if sxx and syy else float("nan")
    scale = sum(x * y for x, y in zip(xs, ys)) / max(sum(x * x for x in xs), 1)
    sign = sum(1 for x, y in zip(xs, ys) if (x > 0) == (y > 0) or abs(y) < 30) / n
    print(f"{n} positions: correlation {r:.3f}, Stockfish ~ {scale:.2f} x menagerie, same sign (or |SF| < 30) {100 * sign:.0f}%")
    print("largest disagreements (menagerie, stockfish, fen):")
    for fen, a, b in sorted(pairs, key=lambda t: -abs(t[1] - t[2]))[:8]:
        print(f"  {a:6} {b:6}  {fen}")


if __name__ == "__main__":
    main()
