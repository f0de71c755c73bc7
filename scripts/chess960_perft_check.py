#!/usr/bin/env python3
"""Chess960 perft of menagerie against python-chess (issue 13, fault 1).

Drives the engine through its protocol (`setoption name UCI_Chess960 value true`,
`position fen ... [moves ...]`, `go perft N`, `d`) and compares, for every position:
  - the divide (each root move's token and count) with python-chess's Chess960 board
    (`chess.Board(fen, chess960=True)`, tokens `board.uci(move)`: King takes Rook);
  - the FEN the engine prints (`d`) with python-chess's X-FEN (`board.fen(en_passant="xfen")`).
Positions: a sample of the 960 start positions (depth 4 by default), random positions
reached from them by random legal moves sent as `moves` tokens (depth 3), middlegame FENs
(depth 4), and every line of tests/perft/chess960.perft (its figures, up to a node limit).

python-chess is installed with `pip install chess` when it is missing (the script says so).

Usage: scripts/chess960_perft_check.py [--engine PATH] [--starts N] [--walks N]
                                       [--depth D] [--seed S] [--max-file-nodes N]
Exit status 0 when everything agrees, 1 otherwise.
"""

import argparse
import os
import random
import subprocess
import sys

try:
    import chess
except ImportError:
    print("python-chess is missing: running pip install chess", flush=True)
    subprocess.check_call([sys.executable, "-m", "pip", "install", "--quiet", "chess"])
    import chess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Middlegame Chess960 positions (chessprogramming wiki "Chess960 Perft Results") and
# castling corner cases; their counts come from python-chess here.
MIDDLEGAMES = [
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
    "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9",
    "qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9",
    "1nbbnrkr/p1p1ppp1/3p4/1p3P1p/3Pq2P/8/PPP1P1P1/QNBBNRKR w HFhf - 0 9",
    "qnbnr1kr/ppp1b1pp/4p3/3p1p2/8/2NPP3/PPP1BPPP/QNB1R1KR w HEhe - 1 9",
    "q1bnrkr1/ppppp2p/2n2p2/4b1p1/2NP4/8/PPP1PPPP/QNB1RRKB w ge - 1 9",
    "qbn1brkr/ppp1p1p1/2n4p/3p1p2/P7/6PP/QPPPPP2/1BNNBRKR w HFhf - 0 9",
    # King and Rook next to each other, King on its castling square, the Rook shielding
    # the King's destination from a Queen (castling then illegal).
    "1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1",
    "rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1",
    "1rk3r1/8/8/8/8/8/8/qRK3R1 w GB - 0 1",
    "4k3/8/8/8/8/8/8/q1RK3R w HC - 0 1",
]


class Engine:
    """A menagerie process speaking the protocol."""

    def __init__(self, path):
        self.p = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.read_until("uciok")
        self.send("setoption name UCI_Chess960 value true")
        self.send("isready")
        lines = self.read_until("readyok")
        if any("error" in l for l in lines):
            raise SystemExit(f"the engine refused UCI_Chess960: {lines}")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def read_until(self, prefix):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit("the engine exited")
            line = line.rstrip("\n")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def divide(self, position, depth):
        self.send(position)
        self.send(f"go perft {depth}")
        lines = self.read_until("Nodes searched")
        errors = [l for l in lines if l.startswith("info string error")]
        rows = {}
        for l in lines:
            if ": " in l and not l.startswith("info") and not l.startswith("Nodes"):
                token, count = l.split(": ")
                rows[token] = int(count)
        total = int(lines[-1].split(": ")[1])
        return rows, total, errors

    def fen(self):
        self.send("d")
        self.send("isready")
        lines = self.read_until("readyok")
        return next(l[5:] for l in lines if l.startswith("Fen: "))

    def quit(self):
        self.send("quit")
        self.p.wait(timeout=10)


def count(board, depth):
    """python-chess perft (bulk counting at the last ply)."""
    if depth == 1:
        return board.legal_moves.count()
    n = 0
    for m in list(board.legal_moves):
        board.push(m)
        n += count(board, depth - 1)
        board.pop()
    return n


def reference_divide(board, depth):
    rows = {}
    for m in list(board.legal_moves):
        if depth == 1:
            rows[board.uci(m)] = 1
        else:
            board.push(m)
            rows[board.uci(m)] = count(board, depth - 1)
            board.pop()
    return rows


class Checker:
    def __init__(self, engine):
        self.engine = engine
        self.positions = 0
        self.nodes = 0
        self.failures = []

    def check(self, label, start_fen, moves, depth):
        board = chess.Board(start_fen, chess960=True)
        for t in moves:
            board.push_uci(t)
        position = f"position fen {start_fen}" + (f" moves {' '.join(moves)}" if moves else "")
        rows, total, errors = self.engine.divide(position, depth)
        expected = reference_divide(board, depth)
        self.positions += 1
        self.nodes += sum(expected.values())
        if errors or rows != expected:
            diff = sorted(
                (t, rows.get(t), expected.get(t))
                for t in set(rows) | set(expected)
                if rows.get(t) != expected.get(t)
            )
            self.failures.append(f"{label}: {position} depth {depth}: {errors} {diff[:8]}")
            return
        assert total == sum(expected.values())
        fen = self.engine.fen()
        want = board.fen(en_passant="xfen")
        if fen != want:
            self.failures.append(f"{label}: {position}: FEN {fen} != python-chess {want}")


def random_walk(start_fen, rng, plies):
    board = chess.Board(start_fen, chess960=True)
    moves = []
    for _ in range(plies):
        legal = list(board.legal_moves)
        if not legal or board.is_game_over(claim_draw=False):
            break
        # Favour castling when it is there, so that walks reach castled positions.
        castles = [m for m in legal if board.is_castling(m)]
        m = rng.choice(castles) if castles and rng.random() < 0.5 else rng.choice(legal)
        moves.append(board.uci(m))
        board.push(m)
    return moves


def perft_file(path):
    cases = []
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, fen, counts = (p.strip() for p in line.split("|"))
        cases.append((name, fen, [int(c) for c in counts.split()]))
    return cases


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    ap.add_argument("--engine", default=os.path.join(target, "release", "menagerie"))
    ap.add_argument("--starts", type=int, default=120, help="start positions (of 960)")
    ap.add_argument("--walks", type=int, default=2, help="random walks per start position")
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--seed", type=int, default=960)
    ap.add_argument("--max-file-nodes", type=int, default=2_000_000)
    args = ap.parse_args()
    rng = random.Random(args.seed)

    engine = Engine(args.engine)
    checker = Checker(engine)

    # Start positions: always the standard one (518) and a few famous ones, then a sample.
    numbers = [518, 0, 959, 1, 480] + rng.sample(range(960), max(0, args.starts - 5))
    for n in numbers[: args.starts]:
        fen = chess.Board.from_chess960_pos(n).fen()
        checker.check(f"start {n}", fen, [], args.depth)
        for _ in range(args.walks):
            moves = random_walk(fen, rng, rng.randrange(6, 41))
            checker.check(f"start {n} walk", fen, moves, max(1, args.depth - 1))
    starts_done = checker.positions
    for fen in MIDDLEGAMES:
        checker.check("middlegame", fen, [], args.depth)

    # The perft suite of the tests: every figure up to --max-file-nodes nodes.
    suite = os.path.join(ROOT, "tests", "perft", "chess960.perft")
    suite_checked = 0
    for name, fen, counts in perft_file(suite):
        board = chess.Board(fen, chess960=True)
        for d, n in enumerate(counts, start=1):
            if n > args.max_file_nodes:
                break
            got = count(board, d)
            suite_checked += 1
            if got != n:
                checker.failures.append(f"{suite}: {name} depth {d}: file {n}, python-chess {got}")
    engine.quit()

    print(
        f"{checker.positions} positions compared ({starts_done} from {len(numbers[:args.starts])} "
        f"start positions and their walks, {len(MIDDLEGAMES)} middlegames), "
        f"{checker.nodes} leaf nodes; {suite_checked} figures of {os.path.relpath(suite, ROOT)} "
        f"confirmed up to {args.max_file_nodes} nodes"
    )
    for f in checker.failures:
        print("MISMATCH", f)
    print("OK" if not checker.failures else f"{len(checker.failures)} mismatches")
    return 0 if not checker.failures else 1


if __name__ == "__main__":
    sys.exit(main())
