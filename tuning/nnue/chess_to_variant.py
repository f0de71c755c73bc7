#!/usr/bin/env python3
"""Writes chess's compiled-in network (`src/variants/chess/network.nnv`, format MNV1 with 768
inputs; or a chess network in the MNN1 format chess used before 2026-11-29) as a network file
(MNV1, src/variants/network.rs) for a variant on the orthodox board whose first 768 inputs are
the board's (`src/variants/orthodox/inputs.rs`: chess's layout), with zero rows for its inputs
beyond them. What `menagerie-tuning net --init` then fine-tunes on the variant's own games
(Muster's network, src/variants/muster/network.manifest.md).

    python3 tuning/nnue/chess_to_variant.py src/variants/chess/network.nnv muster 896 out.nnv

Standard library only.
"""
import struct
import sys


def main() -> None:
    if len(sys.argv) != 5:
        sys.exit("usage: chess_to_variant.py CHESS_NETWORK VARIANT INPUTS OUT")
    src, variant, inputs, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    data = open(src, "rb").read()
    if data[:4] == b"MNN1":
        hidden, out_scale = struct.unpack_from("<II", data, 4)
        at = 12
    elif data[:4] == b"MNV1" and data[5 : 5 + data[4]] == b"chess":
        at = 5 + data[4]
        n, hidden, out_scale = struct.unpack_from("<III", data, at)
        if n != 768:
            sys.exit(f"{src}: a chess network of {n} inputs, expected 768")
        at += 12
    else:
        sys.exit(f"{src}: not a chess network (MNN1, or MNV1 of 'chess')")
    board = 768 * hidden * 2
    if inputs < 768 or len(data) != at + board + 2 * (hidden + 2 * hidden) + 4:
        sys.exit(f"{src}: unexpected size {len(data)}, or fewer than 768 inputs asked")
    name = variant.encode()
    header = b"MNV1" + bytes([len(name)]) + name + struct.pack("<III", inputs, hidden, out_scale)
    rows = data[at : at + board] + bytes((inputs - 768) * hidden * 2)
    with open(out, "wb") as f:
        f.write(header + rows + data[at + board :])


if __name__ == "__main__":
    main()
