#!/usr/bin/env python3
"""Two people on two machines play each of the six games against each other through
`menagerie gui --host`, with the token (docs/gui.md "Two machines").

    pip install -r scripts/requirements-gui.txt
    sudo scripts/gui_two_machines.py [path/to/menagerie] [--plies N] [--seed S] [--shots DIR]

Linux only, as root. The second machine is a network namespace, `menagerie-b`, with its own
network stack, joined to this one by a veth pair: this side is 10.77.0.1, the other 10.77.0.2.
The server listens on 10.77.0.1 (so it asks for its token). Person A's Chromium runs here and
opens the printed address; person B's Chromium runs in the namespace (its chromedriver listens on
10.77.0.2) and reaches the server only over the veth, through the link A's page shows.

First, from the other machine, the script checks the access rules: no token gets 401, a foreign
Host 421, a foreign Origin 403. Then, for each variant, A makes a game for a friend on the home
page and B opens the friend's link; the side to move plays a seeded random legal turn through its
own page (`window.__menagerie.game.submit`, the function the page's clicks end in), and the
script waits for the other page to show it, until the game ends or after N plies (default 300)
A offers a draw with its button and B accepts with its Accept button. It prints a line per game
(plies, result, and how long the other page took to show each turn, as polled every 10 ms) and
takes screenshots of both pages at the end of each game. Removes the namespace at the end.
"""
import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

NS = "menagerie-b"
HERE, THERE = "10.77.0.1", "10.77.0.2"


def sh(*cmd, check=True):
    return subprocess.run(cmd, check=check, capture_output=True, text=True)


def network_up():
    network_down()
    sh("ip", "netns", "add", NS)
    sh("ip", "link", "add", "mgA0", "type", "veth", "peer", "name", "mgB0")
    sh("ip", "link", "set", "mgB0", "netns", NS)
    sh("ip", "addr", "add", f"{HERE}/24", "dev", "mgA0")
    sh("ip", "link", "set", "mgA0", "up")
    sh("ip", "netns", "exec", NS, "ip", "addr", "add", f"{THERE}/24", "dev", "mgB0")
    sh("ip", "netns", "exec", NS, "ip", "link", "set", "mgB0", "up")
    sh("ip", "netns", "exec", NS, "ip", "link", "set", "lo", "up")


def network_down():
    sh("ip", "link", "del", "mgA0", check=False)
    sh("ip", "netns", "del", NS, check=False)


def options(width, height):
    o = Options()
    for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--disable-background-networking", "--disable-component-update", "--no-first-run",
              f"--window-size={width},{height}", "--user-data-dir=" + tempfile.mkdtemp(prefix="chr-")]:
        o.add_argument(a)
    o.binary_location = "/usr/bin/chromium"
    return o


def access_checks(url, token):
    """From the other machine: what a request without the token, with a foreign Host and with a
    foreign Origin gets."""
    probe = f"""
import json, urllib.request, urllib.error
def status(path, method="GET", headers=None, body=None):
    r = urllib.request.Request("{url}" + path, method=method, headers=headers or {{}}, data=body)
    try:
        return urllib.request.urlopen(r, timeout=10).status
    except urllib.error.HTTPError as e:
        return e.code
auth = {{"Authorization": "Bearer {token}", "Content-Type": "application/json"}}
print(json.dumps({{
    "no token": status("/api/games"),
    "token": status("/api/games", headers=auth),
    "foreign Host": status("/api/games", headers=dict(auth, Host="evil.example:8080")),
    "foreign Origin": status("/api/games", "POST", dict(auth, Origin="http://evil.example"),
                             json.dumps({{"variant": "chess"}}).encode()),
}}))
"""
    out = sh("ip", "netns", "exec", NS, sys.executable, "-c", probe).stdout
    return json.loads(out)


def game(d):
    return d.execute_script(
        "const g = window.__menagerie && window.__menagerie.game;"
        "return g && g.st ? {moves: g.st.moves.length, to_move: g.st.to_move, legal: g.st.legal,"
        " result: g.st.result, you: g.you, submitting: !!g.submitting} : null")


def wait(pred, what, timeout=60):
    end = time.time() + timeout
    while time.time() < end:
        v = pred()
        if v:
            return v
        time.sleep(0.01)
    raise SystemExit(f"timed out: {what}")


def play(a, b, url, variant, rng, plies, shots):
    a.get(f"{url}/")
    wait(lambda: a.execute_script("return !!document.querySelector('#variant-select option')"), "home page")
    a.execute_script(
        "const s = document.querySelector('#variant-select'); s.value = arguments[0];"
        "s.dispatchEvent(new Event('change', {bubbles: true}));"
        "const o = document.querySelector('#opponent-select'); o.value = 'friend';"
        "o.dispatchEvent(new Event('change', {bubbles: true}));", variant)
    a.find_element(By.ID, "new-game").click()
    if variant == "muster":
        wait(lambda: a.find_element(By.ID, "army-start").is_displayed(), "the two armies")
        a.find_element(By.ID, "army-start").click()
    wait(lambda: "/game/" in a.current_url, "the game page")
    links = wait(lambda: a.execute_script(
        "const l = [...document.querySelectorAll('#invite input')].map((i) => i.value);"
        "return l.length ? l : null"), "the invite links")
    friend = next(l for l in links if "seat=" in l)
    b.get(friend)
    wait(lambda: game(b), "B's game page")
    pages = {c: p for p in (a, b) for c in game(p)["you"]}
    shown = []
    while True:
        st = game(a)
        if st["result"] or st["moves"] >= plies:
            break
        mover = pages[st["to_move"]]
        other = b if mover is a else a
        n = st["moves"]
        wait(lambda: (lambda g: g and g["moves"] == n and not g["submitting"])(game(mover)), "the mover's page")
        token = rng.choice(game(mover)["legal"])
        t = time.perf_counter()
        mover.execute_script("window.__menagerie.game.submit(arguments[0])", token)
        wait(lambda: game(other)["moves"] > n, f"ply {n + 1} on the other page")
        shown.append((time.perf_counter() - t) * 1000)
        wait(lambda: game(mover)["moves"] > n, f"ply {n + 1} on the mover's page")
    if not game(a)["result"]:
        a.find_element(By.ID, "draw").click()
        wait(lambda: b.find_element(By.ID, "offer-bar").is_displayed(), "the draw offer on B's page")
        b.find_element(By.CSS_SELECTOR, '#offer-bar button[data-answer="accept"]').click()
        wait(lambda: game(a)["result"] and game(b)["result"], "the agreed draw")
    r = game(b)["result"]
    if shots:
        a.save_screenshot(os.path.join(shots, f"two-machines-{variant}-a.png"))
        b.save_screenshot(os.path.join(shots, f"two-machines-{variant}-b.png"))
    return game(a)["moves"], r, shown


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("binary", nargs="?", default="target/release/menagerie")
    ap.add_argument("--plies", type=int, default=300)
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--shots", default=None, help="directory for the screenshots")
    args = ap.parse_args()
    if os.geteuid() != 0:
        raise SystemExit("needs root (network namespaces)")
    if args.shots:
        os.makedirs(args.shots, exist_ok=True)
    network_up()
    server = driver_b = a = b = None
    try:
        server = subprocess.Popen([args.binary, "gui", "--host", HERE, "--port", "0", "--games-dir",
                                   tempfile.mkdtemp(prefix="gui-two-")], stdout=subprocess.PIPE, text=True)
        printed = next(w for w in server.stdout.readline().split() if w.startswith("http://"))
        url, token = printed.split("/?token=")
        print(f"server: {url} (token of {len(token)} characters)")
        print("from the other machine:", json.dumps(access_checks(url, token)))
        a = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options(1280, 900))
        driver_b = subprocess.Popen(["ip", "netns", "exec", NS, "/usr/bin/chromedriver", "--port=9516",
                                     f"--allowed-ips={HERE}", "--allowed-origins=*"],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait(lambda: sh("ip", "netns", "exec", NS, "bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/9516",
                        check=False).returncode == 0 or None, "B's chromedriver", 20)
        b = webdriver.Remote(command_executor=f"http://{THERE}:9516", options=options(390, 844))
        # Each person opens the address they were given: A the printed one, B later the link.
        a.get(printed)
        rng = random.Random(args.seed)
        variants = sh(args.binary, "variants").stdout.split()
        for v in variants:
            t = time.time()
            plies, result, shown = play(a, b, url, v, rng, args.plies, args.shots)
            print(f"{v}: {plies} plies, {result['score']} {result['reason']}, the other page showed each"
                  f" turn in median {statistics.median(shown):.0f} ms, at most {max(shown):.0f} ms"
                  f" ({len(shown)} turns, {time.time() - t:.0f} s)")
    finally:
        for d in (a, b):
            if d:
                d.quit()
        for p in (driver_b, server):
            if p:
                p.terminate()
        network_down()


if __name__ == "__main__":
    main()
