#!/usr/bin/env python3
"""Test double: declares a UCI_Variant combo offering chess only and a Hash option, answers
the handshake, and never plays (the start-up checks must stop any other variant first)."""
import sys

for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        print("id name chess-only-double", flush=True)
        print("option name UCI_Variant type combo default chess var chess", flush=True)
        print("option name Hash type spin default 16 min 1 max 1024", flush=True)
        print("uciok", flush=True)
    elif words[0] == "isready":
        print("readyok", flush=True)
    elif words[0] == "quit":
        break
