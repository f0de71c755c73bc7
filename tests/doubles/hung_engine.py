#!/usr/bin/env python3
"""Test double: answers the handshake, then never answers `go` (but stays alive)."""
import sys

for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        print("id name hung-double\nuciok", flush=True)
    elif words[0] == "isready":
        print("readyok", flush=True)
    elif words[0] == "quit":
        break
