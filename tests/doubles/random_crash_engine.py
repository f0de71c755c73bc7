#!/usr/bin/env python3
"""Test double: a real engine behind a proxy that dies at random moments.

    random_crash_engine.py <engine> <seed> <counter-file> [<percent>]

Starts <engine>, passes every line both ways, and before passing a line from the runner (or
right after passing a `bestmove` to it) dies with probability <percent>/100 (default 3) for
`go`, a third of that for other lines, in one of these ways, chosen at random:

- exit at once (status 3), or kill itself with SIGKILL;
- write half a line (`bestmo`) and exit;
- close its output and go on reading (the runner sees the end of output);
- close its input and stay alive for 30 s (the runner's next line meets a closed pipe);
- go silent: read on but answer nothing (a timeout).

The counter file numbers the processes: process 1 (the runner's start-up check) never dies,
so a match is not stopped before it starts. Process 2, the first to play a game, dies for
certain at the first `go` it reads (before passing it on, so in the middle of a game, whose
engine it costs), in the way its draw picks: every run has at least one fault, whatever the
chances. Process n draws from seed * 1000 + n.
"""
import os
import random
import signal
import subprocess
import sys
import threading
import time

engine, seed, counter = sys.argv[1], int(sys.argv[2]), sys.argv[3]
percent = float(sys.argv[4]) if len(sys.argv) > 4 else 3.0

# The process number: an exclusive-create lock keeps two starting processes apart.
lock = counter + ".lock"
while True:
    try:
        fd = os.open(lock, os.O_CREAT | os.O_EXCL)
        break
    except FileExistsError:
        time.sleep(0.001)
try:
    n = int(open(counter).read() or "0") + 1 if os.path.exists(counter) else 1
    with open(counter, "w") as f:
        f.write(str(n))
finally:
    os.close(fd)
    os.remove(lock)

rng = random.Random(seed * 1000 + n)
child = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                         bufsize=1)
out_lock = threading.Lock()
silent = threading.Event()


def die():
    """Dies (or breaks) in one of the ways listed above; may return (output closed, silent)."""
    way = rng.randrange(6)
    if way == 0:
        os._exit(3)
    if way == 1:
        os.kill(os.getpid(), signal.SIGKILL)
    if way == 2:
        with out_lock:
            os.write(1, b"bestmo")
        os._exit(4)
    if way == 3:
        with out_lock:
            os.close(1)
        silent.set()
        return
    if way == 4:
        os.close(0)
        silent.set()
        time.sleep(30)
        os._exit(5)
    silent.set()


def chance(line):
    if n == 1:
        return False
    p = percent if line.startswith("go") else percent / 3
    return rng.random() * 100 < p


def pump():
    for line in child.stdout:
        if silent.is_set():
            continue
        with out_lock:
            try:
                sys.stdout.write(line)
                sys.stdout.flush()
            except OSError:
                os._exit(6)
        if line.startswith("bestmove") and chance("go"):
            die()
    os._exit(0)


threading.Thread(target=pump, daemon=True).start()
certain = n == 2
for line in sys.stdin:
    if certain and line.startswith("go"):
        certain = False
        die()
    if not silent.is_set() and chance(line):
        die()
    if silent.is_set():
        continue
    try:
        child.stdin.write(line)
        child.stdin.flush()
    except OSError:
        break
    if line.split()[:1] == ["quit"]:
        break
try:
    child.stdin.close()
    child.wait(timeout=5)
except Exception:
    child.kill()
os._exit(0)
