#!/usr/bin/env python3
"""Replace the search scores of a chess `menagerie datagen` file with Stockfish's.

Every `FEN | score | result` line gets Stockfish's score of the position from a search of
`--nodes` nodes (centipawns, White's view, mates clamped to +-`--clamp`); `#` lines and the
results are kept. With `menagerie-tuning texel --lambda L --k K` the target of each position is
then `L * result + (1 - L) * sigmoid(K * stockfish_score)`: the evaluation is fitted to a
stronger engine's judgement as well as to the game's outcome (distillation). Positions in
check, and those where Stockfish's score differs from the recorded one by more than
`--max-diff` centipawns (tactics the static evaluation cannot see), are dropped when asked.

Setup: apt-get install stockfish (Stockfish 15.1 is what Debian ships). Run by hand; the test
command does not need it.
Usage:  scripts/relabel_stockfish.py in.txt out.txt [--nodes 3000] [--jobs 2] [--every 1]
            [--stockfish /usr/games/stockfish]
"""

import argparse
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor


class Stockfish:
    """One Stockfish process spoken to over plain UCI lines."""

    def __init__(self, path):
        self.p = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.wait_for("uciok")
        self.send("setoption name Threads value 1")
        self.send("setoption name Hash value 16")
        self.send("isready")
        self.wait_for("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait_for(self, prefix):
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("stockfish exited")
            if line.startswith(prefix):
                return line

    def score(self, fen, nodes, clamp):
        """The last reported score (side to move's view, centipawns), or None."""
        self.send(f"position fen {fen}")
        self.send(f"go nodes {nodes}")
        score = None
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("stockfish exited")
            if line.startswith("bestmove"):
                return score
            if line.startswith("info") and " score " in line and " bound" not in line:
                words = line.split()
                i = words.index("score")
                kind, value = words[i + 1], int(words[i + 2])
                if kind == "cp":
                    score = max(-clamp, min(clamp, value))
                else:
                    score = clamp if value > 0 else -clamp

    def close(self):
        self.send("quit")
        self.p.wait()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--nodes", type=int, default=3000)
    ap.add_argument("--jobs", type=int, default=2, help="Stockfish processes, one thread each")
    ap.add_argument("--every", type=int, default=1, help="keep every N-th position")
    ap.add_argument("--clamp", type=int, default=2000, help="mate and large scores, centipawns")
    ap.add_argument("--max-diff", type=int, default=0, help="drop when |sf - recorded| > this (0: keep)")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    a = ap.parse_args()

    lines = open(a.input).read().splitlines()
    out = []  # strings, or (index into jobs) placeholders
    jobs = []
    seen = 0
    for line in lines:
        if not line.strip() or line.startswith("#"):
            out.append(line)
            continue
        seen += 1
        if (seen - 1) % a.every:
            continue
        fen, score, result = [f.strip() for f in line.split("|")]
        out.append(len(jobs))
        jobs.append((fen, int(score), result))

    engines = [Stockfish(a.stockfish) for _ in range(a.jobs)]
    results = [None] * len(jobs)

    def work(w):
        sf = engines[w]
        for i in range(w, len(jobs), a.jobs):
            fen, _, _ = jobs[i]
            s = sf.score(fen, a.nodes, a.clamp)
            if s is not None and fen.split()[1] == "b":
                s = -s
            results[i] = s
            if w == 0 and i % (2000 * a.jobs) == 0:
                print(f"{i}/{len(jobs)}", file=sys.stderr, flush=True)

    with ThreadPoolExecutor(a.jobs) as ex:
        list(ex.map(work, range(a.jobs)))
    for sf in engines:
        sf.close()

    kept = dropped = 0
    with open(a.output, "w") as f:
        for item in out:
            if isinstance(item, str):
                f.write(item + "\n")
                continue
            fen, recorded, result = jobs[item]
            s = results[item]
            if s is None or (a.max_diff and abs(s - recorded) > a.max_diff):
                dropped += 1
                continue
            kept += 1
            f.write(f"{fen} | {s} | {result}\n")
    print(f"{kept} positions written, {dropped} dropped", file=sys.stderr)


if __name__ == "__main__":
    main()
