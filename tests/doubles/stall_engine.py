#!/usr/bin/env python3
"""Test double for the GUI server: runs the real engine ($MENAGERIE_ENGINE) and passes every
line through, until this process's STALL_AT_GO-th 'go' or STALL_AT_POSITION-th 'position' (each
counted per process; unset: never). From then on it passes nothing either way and stays
alive, as a hung engine does. Each process that stalls appends its pid to $STALL_LOG."""
import os
import subprocess
import sys
import threading

engine = subprocess.Popen([os.environ["MENAGERIE_ENGINE"]], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, bufsize=0)
at = {b"go": int(os.environ.get("STALL_AT_GO", "0")),
      b"position": int(os.environ.get("STALL_AT_POSITION", "0"))}
seen = {b"go": 0, b"position": 0}
stalled = threading.Event()


def pump():
    for line in engine.stdout:
        if stalled.is_set():
            continue
        sys.stdout.buffer.write(line)
        sys.stdout.buffer.flush()


threading.Thread(target=pump, daemon=True).start()
for line in sys.stdin.buffer:
    word = (line.split() or [b""])[0]
    if word in seen and not stalled.is_set():
        seen[word] += 1
        if seen[word] == at[word]:
            stalled.set()
            with open(os.environ["STALL_LOG"], "a") as log:
                log.write(f"{os.getpid()}\n")
    if stalled.is_set():
        continue
    engine.stdin.write(line)
    engine.stdin.flush()
engine.kill()
