#!/usr/bin/env python3
"""What a large Hash costs, and when: the time from `setoption name Hash value <MiB>` plus
`isready` to `readyok`, and the wall time and depth of `go movetime <ms>` along a self-played
game, for each Hash size given.

For every size a fresh engine is started; it sets the Hash (and Threads), waits for `readyok`
(timed: the `isready` cost), then plays PLIES plies of a game against itself from the start
position with `go movetime`, timing each `go` from the line sent to `bestmove` and reading the
depth of the last `info` line before it. Printed: the `isready` time, then per size the
median, mean and largest wall time of a `go`, and the mean and smallest depth.

Usage:
    scripts/hash_timing.py [--engine target/release/menagerie] [--hash 16 1024]
                           [--movetime 200] [--plies 10] [--threads 1]

Runs by hand; nothing else heavy should run meanwhile (timings).
"""

import argparse
import statistics
import subprocess
import time


def run(engine, hash_mb, threads, movetime, plies):
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         text=True, bufsize=1)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def until(prefix):
        seen = []
        while True:
            line = p.stdout.readline()
            if not line:
                raise RuntimeError("engine exited; got %r" % seen[-5:])
            line = line.rstrip("\n")
            seen.append(line)
            if line.startswith(prefix):
                return seen

    send("isready")
    until("readyok")
    send("setoption name Threads value %d" % threads)
    t0 = time.perf_counter()
    send("setoption name Hash value %d" % hash_mb)
    send("isready")
    until("readyok")
    ready_ms = (time.perf_counter() - t0) * 1000
    send("ucinewgame")
    send("isready")
    until("readyok")
    moves = []
    walls, depths = [], []
    for _ in range(plies):
        send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        t = time.perf_counter()
        send("go movetime %d" % movetime)
        lines = until("bestmove")
        walls.append((time.perf_counter() - t) * 1000)
        depth = 0
        for line in lines:
            w = line.split()
            if w[:1] == ["info"] and "depth" in w and "string" not in w:
                depth = int(w[w.index("depth") + 1])
        depths.append(depth)
        best = lines[-1].split()[1]
        if best in ("(none)", "0000"):
            break
        moves.append(best)
    send("quit")
    p.wait(timeout=30)
    return ready_ms, walls, depths


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", default="target/release/menagerie")
    ap.add_argument("--hash", type=int, nargs="+", default=[16, 1024])
    ap.add_argument("--movetime", type=int, default=200)
    ap.add_argument("--plies", type=int, default=10)
    ap.add_argument("--threads", type=int, default=1)
    a = ap.parse_args()
    for mb in a.hash:
        ready, walls, depths = run(a.engine, mb, a.threads, a.movetime, a.plies)
        print("Hash %5d MiB: isready %7.1f ms | go movetime %d x%d: wall median %.1f mean %.1f "
              "max %.1f ms | depth mean %.1f min %d | depths %s"
              % (mb, ready, a.movetime, len(walls), statistics.median(walls),
                 statistics.mean(walls), max(walls), statistics.mean(depths), min(depths),
                 " ".join(map(str, depths))))


if __name__ == "__main__":
    main()
