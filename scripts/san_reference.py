#!/usr/bin/env python3
"""Writes tests/data/san-reference.txt: python-chess's SAN of every legal move of positions
reached by seeded random playouts of orthodox chess, the reference that tests/notation.rs
holds menagerie's SAN to (for chess, and for Muster's orthodox turns).

Each line: a FEN, then ` | `, then `token=SAN` words for every legal move (UCI tokens, castling
as the King's move). Usage (from the repository root, with scripts/requirements-chess.txt):
    python3 scripts/san_reference.py [--games 40] [--plies 120] [--seed 79]
"""

import argparse
import random

import chess


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--plies", type=int, default=120)
    ap.add_argument("--every", type=int, default=6, help="keep every N-th position")
    ap.add_argument("--seed", type=int, default=79)
    ap.add_argument("--out", default="tests/data/san-reference.txt")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    lines = []
    for _ in range(args.games):
        board = chess.Board()
        for ply in range(args.plies):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over(claim_draw=False):
                break
            if ply % args.every == 0:
                words = " ".join(f"{m.uci()}={board.san(m)}" for m in moves)
                lines.append(f"{board.fen()} | {words}")
            # Captures and checks more often, so that disambiguations, promotions and mates
            # come up.
            weights = [4 if board.is_capture(m) or m.promotion else 1 for m in moves]
            board.push(rng.choices(moves, weights)[0])
    with open(args.out, "w") as f:
        f.write(f"# python-chess {chess.__version__}: scripts/san_reference.py --games "
                f"{args.games} --plies {args.plies} --every {args.every} --seed {args.seed}\n")
        f.write("\n".join(lines) + "\n")
    print(f"{args.out}: {len(lines)} positions")


if __name__ == "__main__":
    main()
