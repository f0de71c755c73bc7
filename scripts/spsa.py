#!/usr/bin/env python3
"""SPSA tuning of menagerie's search parameters through `menagerie match` (issue 15).

The engine must be built with the `spsa` feature, which exposes every search parameter
(src/search/params.rs) as a `spin` option of the protocol:

    cargo build --release --features spsa
    cp target/release/menagerie /tmp/menagerie-spsa

Each iteration draws a random +-1 direction `delta`, plays a few game pairs at fixed nodes
between theta + c_k * delta and theta - c_k * delta (`menagerie match`, colours reversed in
each pair, `option.<name>=<value>` words on the engine command lines), and moves theta by
a_k / c_k * (wins - losses of theta+) * delta. The gains follow fishtest's schedule
(alpha 0.602, gamma 0.101, A = 10% of the iterations, a = r_end * c_end^2 at the end);
c_end defaults to a twentieth of the parameter's range and r_end to 0.002.

    python3 scripts/spsa.py --engine /tmp/menagerie-spsa --variant mulliganstew \\
        --params rfp_margin,fp_base,fp_per_depth,lmr_base_x100,lmr_divisor_x100 \\
        --iterations 200 --pairs 4 --nodes 5000 --random-plies 6 --concurrency 2

Per-parameter overrides: `name:c_end` (e.g. `rfp_margin:10`). Progress goes to stderr and,
with --log, one CSV line per iteration. At the end the script prints the tuned values as
`name = value` lines and as a patch hint for the `tunables!` declaration of SearchParams.
Deterministic for a given --seed (the match seeds and the directions derive from it), up to
the engines' own behaviour at fixed nodes, which is deterministic too.
"""

import argparse
import math
import random
import re
import subprocess
import sys


def engine_options(engine):
    """The spin options the engine announces: name -> (default, min, max)."""
    out = subprocess.run(
        [engine], input="uci\nquit\n", capture_output=True, text=True, timeout=30
    ).stdout
    opts = {}
    for line in out.splitlines():
        m = re.match(
            r"option name (\S+) type spin default (-?\d+) min (-?\d+) max (-?\d+)", line
        )
        if m:
            opts[m.group(1)] = tuple(int(m.group(i)) for i in (2, 3, 4))
    return opts


def play(args, plus, minus, seed):
    """Plays args.pairs pairs between the two settings; returns (wins, draws, losses) of plus."""

    def spec(values):
        words = [args.engine] + [f"option.{n}={v}" for n, v in values.items()]
        return " ".join(words)

    cmd = [
        args.menagerie or args.engine,
        "match",
        "--engine", spec(plus),
        "--engine", spec(minus),
        "--variant", args.variant,
        "--games", str(2 * args.pairs),
        "--nodes", str(args.nodes),
        "--concurrency", str(args.concurrency),
        "--random-plies", str(args.random_plies),
        "--seed", str(seed),
    ]
    res = subprocess.run(cmd, capture_output=True, text=True)
    m = re.search(r"W: (\d+)\s+D: (\d+)\s+L: (\d+)", res.stdout)
    if res.returncode != 0 or not m:
        sys.exit(f"menagerie match failed ({res.returncode}):\n{res.stdout}\n{res.stderr}")
    return tuple(int(x) for x in m.groups())


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", required=True, help="menagerie built with --features spsa")
    ap.add_argument("--menagerie", help="binary running `match` [default: --engine]")
    ap.add_argument("--variant", default="chess")
    ap.add_argument("--params", required=True, help="comma-separated names, each name[:c_end]")
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--pairs", type=int, default=2, help="game pairs per iteration")
    ap.add_argument("--nodes", type=int, default=5000, help="nodes per turn")
    ap.add_argument("--random-plies", type=int, default=6)
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--r-end", type=float, default=0.002)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--log", help="CSV file: iteration, W, D, L, then theta")
    args = ap.parse_args()

    opts = engine_options(args.engine)
    params = []  # [name, theta, min, max, c_end]
    for item in args.params.split(","):
        name, _, c = item.strip().partition(":")
        if name not in opts:
            sys.exit(
                f"'{name}' is not a spin option of {args.engine}: build it with --features spsa "
                f"(options: {', '.join(sorted(opts))})"
            )
        default, lo, hi = opts[name]
        c_end = float(c) if c else max(1.0, (hi - lo) / 20.0)
        params.append([name, float(default), lo, hi, c_end])

    rng = random.Random(args.seed)
    n = args.iterations
    big_a = 0.1 * n
    alpha, gamma = 0.602, 0.101
    log = open(args.log, "w") if args.log else None
    total = [0, 0, 0]
    for k in range(1, n + 1):
        plus, minus, deltas, ck = {}, {}, [], []
        for name, theta, lo, hi, c_end in params:
            c = c_end * n**gamma / k**gamma
            d = rng.choice((-1, 1))
            deltas.append(d)
            ck.append(c)
            plus[name] = int(round(min(hi, max(lo, theta + c * d))))
            minus[name] = int(round(min(hi, max(lo, theta - c * d))))
        w, dr, l = play(args, plus, minus, args.seed * 1_000_003 + k)
        total = [total[0] + w, total[1] + dr, total[2] + l]
        for p, d, c in zip(params, deltas, ck):
            _, theta, lo, hi, c_end = p
            a_end = args.r_end * c_end**2
            a = a_end * (big_a + n) ** alpha
            ak = a / (big_a + k) ** alpha
            p[1] = min(hi, max(lo, theta + ak / c * (w - l) * d))
        line = "  ".join(f"{p[0]}={p[1]:.1f}" for p in params)
        print(f"iter {k}/{n}  +{w} ={dr} -{l}  {line}", file=sys.stderr)
        if log:
            log.write(",".join([str(k), str(w), str(dr), str(l)] + [f"{p[1]:.3f}" for p in params]) + "\n")
            log.flush()
    print(f"# SPSA {args.variant}, {n} iterations x {args.pairs} pairs at {args.nodes} nodes;"
          f" theta+ vs theta-: +{total[0]} ={total[1]} -{total[2]}")
    for name, theta, *_ in params:
        print(f"{name} = {int(round(theta))}")
    print("# In src/search/params.rs, set each default above in the `tunables!` block "
          "(name: type = <value>, (min, max, step);), then check with `menagerie match`.")


if __name__ == "__main__":
    main()
