#!/usr/bin/env python3
"""Test double: a real engine behind a proxy that stops at a known moment, for a test to act
on it then (kill the proxy, or the runner) without depending on timing.

    hold_engine.py <engine> <dir> <game> <go> <times>

Starts <engine> and passes every line both ways, except that the first <times> processes
(across processes, claimed by the files <dir>/claim-<k>) to reach their <go>-th `go` counted
from the start of their <game>-th game (their <game>-th `ucinewgame`) hold it: the process
writes its pid to <dir>/held-<k> (whole, by a rename), passes nothing more either way and
answers nothing, and waits to be killed (after 300 s it exits with status 7). The runner is
then in the middle of a game, waiting for a `bestmove`, for as long as the test needs.
"""
import os
import subprocess
import sys
import threading
import time

engine, folder = sys.argv[1], sys.argv[2]
game, go, times = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])

child = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
held = threading.Event()


def pump():
    for line in child.stdout:
        if held.is_set():
            continue
        try:
            sys.stdout.buffer.write(line)
            sys.stdout.buffer.flush()
        except OSError:
            os._exit(6)
    if not held.is_set():
        os._exit(0)


def claim():
    """The first free hold number, claimed; None when all <times> are taken."""
    for k in range(1, times + 1):
        try:
            os.close(os.open(os.path.join(folder, f"claim-{k}"), os.O_CREAT | os.O_EXCL))
            return k
        except FileExistsError:
            continue
    return None


def hold(k):
    held.set()
    tmp = os.path.join(folder, f".held-{k}")
    with open(tmp, "w") as f:
        f.write(str(os.getpid()))
    os.rename(tmp, os.path.join(folder, f"held-{k}"))
    time.sleep(300)
    os._exit(7)


threading.Thread(target=pump, daemon=True).start()
games, gos = 0, 0
for line in sys.stdin.buffer:
    word = line.split()[:1]
    if word == [b"ucinewgame"]:
        games += 1
    elif word == [b"go"] and games >= game:
        gos += 1
        if gos == go:
            k = claim()
            if k is not None:
                hold(k)
    try:
        child.stdin.write(line)
        child.stdin.flush()
    except OSError:
        break
    if word == [b"quit"]:
        break
try:
    child.stdin.close()
    child.wait(timeout=5)
except Exception:
    child.kill()
os._exit(0)
