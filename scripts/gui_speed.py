#!/usr/bin/env python3
"""How fast the GUI server answers a move (docs/gui.md "Speed"): the time from a move's
request arriving to the engine's `position ... go` line being written, as the server measures
it (`GET /api/metrics`), over games against the engine in every variant.

    scripts/gui_speed.py [path/to/menagerie] [--turns N]

Starts `menagerie gui --port 0` with a games directory under /tmp, plays N turns of the person
(the middle legal token each time) in each variant against the engine at 20 ms a turn, and
prints the median and the largest latency per variant. Standard library only.
"""
import json
import subprocess
import sys
import tempfile
import time
import urllib.request


def call(url, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())


def main():
    args = sys.argv[1:]
    turns = 20
    if "--turns" in args:
        i = args.index("--turns")
        turns = int(args[i + 1])
        del args[i:i + 2]
    binary = args[0] if args else "target/release/menagerie"
    games = tempfile.mkdtemp(prefix="gui-speed-")
    server = subprocess.Popen([binary, "gui", "--port", "0", "--games-dir", games],
                              stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        base = next(w for w in line.split() if w.startswith("http://"))
        variants = call(base + "/api/variants")
        print(f"{'variant':18} {'turns':>5} {'median ms':>10} {'max ms':>8}")
        seen = 0
        for info in variants:
            v = info["name"]
            body = {"variant": v, "engine": "black", "movetime_ms": 20}
            if "seed" in info.get("pregame", []):
                body["seed"] = 7
            st = call(base + "/api/games", body)
            gid = st["id"]
            played = 0
            while played < turns and st["result"] is None and st["legal"]:
                token = st["legal"][len(st["legal"]) // 2]
                st = call(f"{base}/api/games/{gid}/moves", {"token": token})
                played += 1
                while st["result"] is None and (st["engine_thinking"] or st["to_move"] == "black"):
                    time.sleep(0.01)
                    st = call(f"{base}/api/games/{gid}")
            m = call(base + "/api/metrics")["move_to_go_us"][seen:]
            seen += len(m)
            if m:
                s = sorted(m)
                print(f"{v:18} {len(m):5} {s[len(s) // 2] / 1000:10.2f} {s[-1] / 1000:8.2f}")
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
