#!/usr/bin/env python3
"""Test double: answers the handshake, plays two pawn moves (a book valid for either
colour from the chess start position), then exits mid-game with status 3 (a crash)."""
import sys

WHITE = ["a2a3", "a3a4"]
BLACK = ["a7a6", "a6a5"]
turns = 0
side_black = False
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    cmd = words[0]
    if cmd == "uci":
        print("id name crash-double\nuciok", flush=True)
    elif cmd == "isready":
        print("readyok", flush=True)
    elif cmd == "position":
        moves = words[words.index("moves") + 1:] if "moves" in words else []
        side_black = len(moves) % 2 == 1
    elif cmd == "go":
        if turns >= 2:
            sys.exit(3)
        book = BLACK if side_black else WHITE
        print("bestmove " + book[turns], flush=True)
        turns += 1
    elif cmd == "quit":
        break
