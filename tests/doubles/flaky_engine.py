#!/usr/bin/env python3
"""Test double for the GUI server: runs the real engine ($MENAGERIE_ENGINE) and passes every
line through, but the first 'go' ever seen (across processes: the marker file $FLAKY_MARKER
records it) makes this process exit at once, as a crashing engine would. The engine the
server starts next works normally."""
import os
import subprocess
import sys
import threading

engine = subprocess.Popen([os.environ["MENAGERIE_ENGINE"]], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, bufsize=0)


def pump():
    for line in engine.stdout:
        sys.stdout.buffer.write(line)
        sys.stdout.buffer.flush()


threading.Thread(target=pump, daemon=True).start()
marker = os.environ["FLAKY_MARKER"]
for line in sys.stdin.buffer:
    if line.split()[:1] == [b"go"] and not os.path.exists(marker):
        open(marker, "w").close()
        engine.kill()
        os._exit(1)
    engine.stdin.write(line)
    engine.stdin.flush()
engine.stdin.close()
engine.wait()
