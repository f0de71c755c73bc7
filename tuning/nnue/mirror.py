#!/usr/bin/env python3
"""Mirror the positions of a chess datagen file left to right (file a <-> h), for training.

Chess is symmetric under that mirror once neither side may castle, so each such position of
`FEN | score | result` lines gives a second training position with the same score and result.
Positions with castling rights are left out; `# game` lines are kept, so the trainer's split by
game (tuning/nnue/train.py) keeps a game and its mirror image together.

Usage: tuning/nnue/mirror.py in.txt out.txt   (then `menagerie-tuning evals` on out.txt)
"""

import sys


def mirror_fen(fen):
    f = fen.split()
    if len(f) < 4 or f[2] != "-":
        return None
    ranks = []
    for rank in f[0].split("/"):
        cells = []
        for ch in rank:
            cells.extend(["."] * int(ch) if ch.isdigit() else [ch])
        cells.reverse()
        out, empty = "", 0
        for c in cells:
            if c == ".":
                empty += 1
            else:
                out += (str(empty) if empty else "") + c
                empty = 0
        ranks.append(out + (str(empty) if empty else ""))
    ep = f[3] if f[3] == "-" else "abcdefgh"[7 - "abcdefgh".index(f[3][0])] + f[3][1]
    return " ".join(["/".join(ranks), f[1], "-", ep] + f[4:])


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    kept = 0
    with open(sys.argv[1]) as src, open(sys.argv[2], "w") as dst:
        for line in src:
            if line.startswith("#") or not line.strip():
                dst.write(line)
                continue
            fen, rest = line.split("|", 1)
            m = mirror_fen(fen.strip())
            if m is not None:
                dst.write(f"{m} |{rest}")
                kept += 1
    print(f"{kept} positions mirrored")


if __name__ == "__main__":
    main()
