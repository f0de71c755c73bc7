#!/usr/bin/env python3
"""Test double: answers the handshake and the first `isready`, then at its second `isready`
closes its input (the runner's next line meets a pipe without a reader: EPIPE, and SIGPIPE
unless the runner ignores it), answers `readyok` and stays alive for two seconds without
reading, then exits."""
import os
import sys
import time

readies = 0
while True:
    line = sys.stdin.readline()
    if not line:
        break
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        print("id name closed-input-double\nuciok", flush=True)
    elif words[0] == "isready":
        readies += 1
        if readies == 2:
            os.close(0)
            time.sleep(0.2)
            print("readyok", flush=True)
            time.sleep(2)
            sys.exit(0)
        print("readyok", flush=True)
    elif words[0] == "quit":
        break
