#!/usr/bin/env python3
"""Test double: answers the handshake, then always plays the illegal move e2e5."""
import sys

for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        print("id name illegal-double\nuciok", flush=True)
    elif words[0] == "isready":
        print("readyok", flush=True)
    elif words[0] == "go":
        print("bestmove e2e5", flush=True)
    elif words[0] == "quit":
        break
