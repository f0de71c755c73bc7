#!/usr/bin/env python3
"""Test double for the GUI server: runs the real engine ($MENAGERIE_ENGINE) and passes every
line through, but holds back each 'bestmove' line it would send until the file
$GATE_DIR/<n> exists, n counting this process's 'bestmove' lines from 1. So a test decides when
the engine's turn arrives, with no clock: it does what it must while the engine "thinks", then
opens the gate."""
import os
import subprocess
import sys
import threading
import time

engine = subprocess.Popen([os.environ["MENAGERIE_ENGINE"]], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, bufsize=0)
gate = os.environ["GATE_DIR"]
count = 0


def pump():
    global count
    for line in engine.stdout:
        if line.startswith(b"bestmove"):
            count += 1
            while not os.path.exists(os.path.join(gate, str(count))):
                time.sleep(0.02)
        sys.stdout.buffer.write(line)
        sys.stdout.buffer.flush()


threading.Thread(target=pump, daemon=True).start()
for line in sys.stdin.buffer:
    engine.stdin.write(line)
    engine.stdin.flush()
engine.kill()
