#!/usr/bin/env python3
"""How fast the GUI's page loads and redraws (docs/gui.md "Speed"), in headless Chromium.

    pip install -r scripts/requirements-gui.txt
    scripts/gui_page_speed.py [path/to/menagerie]

Starts `menagerie gui --port 0`, opens a game page of chess, Mitosis (the 9x11 board) and
Mutatis Mutandis five times each and prints the median time to the load event and to the page
being ready (`window.__menagerie.ready`, the first state drawn), then plays six turns through
the API and prints the page's own measure of each board redraw (`window.__menagerie.lastRenderMs`).
"""
import json
import subprocess
import sys
import tempfile
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By


def call(base, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())


def browser():
    o = Options()
    for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--disable-background-networking", "--disable-component-update", "--no-first-run",
              "--window-size=1280,900", "--user-data-dir=" + tempfile.mkdtemp(prefix="chr-")]:
        o.add_argument(a)
    o.binary_location = "/usr/bin/chromium"
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else "target/release/menagerie"
    server = subprocess.Popen([binary, "gui", "--port", "0", "--games-dir",
                               tempfile.mkdtemp(prefix="gui-page-")], stdout=subprocess.PIPE, text=True)
    d = None
    try:
        base = next(w for w in server.stdout.readline().split() if w.startswith("http://"))
        d = browser()
        for v in ["chess", "mitosis", "mutatismutandis"]:
            body = {"variant": v, "seed": 7} if v == "mutatismutandis" else {"variant": v}
            gid = call(base, "/api/games", body)["id"]
            loads, ready = [], []
            for _ in range(5):
                d.get(f"{base}/game/{gid}")
                for _ in range(500):
                    t = d.execute_script("return window.__menagerie && window.__menagerie.ready"
                                         " ? performance.now() : null")
                    if t is not None:
                        break
                    time.sleep(0.005)
                loads.append(d.execute_script(
                    "return performance.getEntriesByType('navigation')[0].loadEventEnd"))
                ready.append(t)
            renders = []
            for _ in range(6):
                st = call(base, f"/api/games/{gid}")
                if not st["legal"]:
                    break
                call(base, f"/api/games/{gid}/moves", {"token": st["legal"][len(st["legal"]) // 2]})
                time.sleep(0.4)
                renders.append(d.execute_script("return window.__menagerie.lastRenderMs"))
            print(f"{v:16} load {sorted(loads)[2]:6.0f} ms  ready {sorted(ready)[2]:6.0f} ms  "
                  f"redraws {', '.join(f'{r:.1f}' for r in renders)} ms")
    finally:
        if d is not None:
            d.quit()
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
