#!/usr/bin/env python3
"""Run one `menagerie match` as N shards on Ray, merge them, stop early when the SPRT decides.

Each shard K of N is one Ray task: on a worker it runs
    menagerie match <your match arguments> --shard K/N --json <tmp> [--pgn <tmp>]
and returns the result file's text (and the PGN) to this driver. After every finished shard the
driver writes the files under --out and merges all finished shards with
    menagerie match merge shard-*.json --json merged.json
(the runner's own merge: counts, pentanomial statistics, SPRT). When the merged SPRT accepts H0 or
H1, the shards still queued or running are cancelled. The shards of a match are disjoint and
deterministic (same seed, same book), so their union is exactly the unsharded match.

Requirements: `pip install ray` (tested with Ray 2.60), and `cargo build --release`.

On this machine (a local Ray instance, started and stopped by the script):
    python3 scripts/ray_match.py --shards 4 --out /tmp/run -- \\
        --engine "target/release/menagerie name=new" \\
        --engine "target/release/menagerie name=old" \\
        --variant mystic --games 200 --each "nodes=2000" --openings tests/data/mystic.epd \\
        --sprt "elo0=0 elo1=10 alpha=0.05 beta=0.05"

On a cluster, the same command with --address (passed to `ray.init(address=...)`):
    ray start --head --port=6379                 # on the head node
    ray start --address=<head>:6379              # on each worker node
    python3 scripts/ray_match.py --address auto --shards 64 --out /tmp/run -- ...   # on the head
    (or from another machine: --address ray://<head>:10001, Ray Client)
Every node needs the menagerie binary, the engines and the openings file at the same paths (the
same checkout built on each node, or a shared file system; --cwd is the directory the shards run
in, by default this one). The result files travel back through Ray's object store: no shared
file system is needed for them, and no other network protocol is involved.

Use more shards than CPUs (e.g. 64 for 16 CPUs) for a fine-grained early stop: a shard is the
unit the driver merges and cancels. Each task reserves as many CPUs as the shard's
--concurrency (default 1). Exit status: 0 when every shard that ran finished cleanly.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import ray


def _die_with_parent():
    """In the forked child: SIGKILL when the Ray worker that started it dies (a forced cancel)."""
    try:
        import ctypes
        import signal

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except OSError:
        pass


@ray.remote
def run_shard(binary, cwd, match_args, k, n, want_pgn):
    """Runs shard k/n of the match on this worker; returns its outputs as a dict."""
    started = time.time()
    with tempfile.TemporaryDirectory(prefix=f"menagerie-shard{k}-") as tmp:
        result_file = os.path.join(tmp, "result.json")
        pgn_file = os.path.join(tmp, "games.pgn")
        cmd = [binary, "match", *match_args, "--shard", f"{k}/{n}", "--json", result_file]
        if want_pgn:
            cmd += ["--pgn", pgn_file]
        proc = subprocess.run(
            cmd,
            cwd=cwd,
            capture_output=True,
            text=True,
            preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None,
        )

        def read(path):
            if not os.path.exists(path):
                return None
            with open(path, encoding="utf-8") as f:
                return f.read()

        return {
            "shard": k,
            "returncode": proc.returncode,
            "stdout": proc.stdout,
            "stderr": proc.stderr,
            "json": read(result_file),
            "pgn": read(pgn_file) if want_pgn else None,
            "seconds": time.time() - started,
            "host": os.uname().nodename,
        }


def merge(binary, out_dir, files):
    """`menagerie match merge` of `files` into out_dir/merged.json: (summary text, merged dict)."""
    merged = os.path.join(out_dir, "merged.json")
    proc = subprocess.run(
        [binary, "match", "merge", *files, "--json", merged], capture_output=True, text=True
    )
    if proc.returncode != 0:
        raise RuntimeError(f"menagerie match merge failed: {proc.stderr.strip()}")
    with open(merged, encoding="utf-8") as f:
        return proc.stdout, json.load(f)


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        usage="%(prog)s [options] -- <menagerie match arguments>",
    )
    parser.add_argument("--shards", type=int, default=4, help="number of shards N (default 4)")
    parser.add_argument(
        "--address",
        default=None,
        help="Ray cluster address for ray.init(address=...): 'auto', '<host>:6379' or "
        "'ray://<host>:10001'; without it a local Ray instance is started",
    )
    parser.add_argument(
        "--num-cpus", type=int, default=None, help="CPUs of the local Ray instance (default: all)"
    )
    parser.add_argument(
        "--menagerie",
        default="target/release/menagerie",
        help="the menagerie binary, relative to --cwd (default target/release/menagerie)",
    )
    parser.add_argument(
        "--cwd", default=os.getcwd(), help="directory the shards run in (default: this one)"
    )
    parser.add_argument("--out", default="ray_match_out", help="directory for the results")
    parser.add_argument(
        "--pgn", action="store_true", help="collect the games into <out>/games.pgn"
    )
    parser.add_argument(
        "--no-early-stop",
        action="store_true",
        help="run every shard even when the merged SPRT has decided",
    )
    argv = sys.argv[1:]
    if "--" in argv:
        split = argv.index("--")
        own, match_args = argv[:split], argv[split + 1 :]
    else:
        own, match_args = argv, []
    args = parser.parse_args(own)
    if not match_args:
        parser.error("give the match arguments after --")
    for owned in ("--shard", "--json", "--pgn"):
        if owned in match_args:
            parser.error(f"{owned} is set by the script for each shard; leave it out")
    if args.shards < 1:
        parser.error("--shards must be at least 1")
    concurrency = 1
    if "--concurrency" in match_args:
        concurrency = int(match_args[match_args.index("--concurrency") + 1])
    binary = os.path.join(args.cwd, args.menagerie)
    os.makedirs(args.out, exist_ok=True)

    started = time.time()
    if args.address is None:
        ray.init(num_cpus=args.num_cpus)
    else:
        ray.init(address=args.address)
    n = args.shards
    pending = {
        run_shard.options(num_cpus=concurrency).remote(
            binary, args.cwd, match_args, k, n, args.pgn
        ): k
        for k in range(1, n + 1)
    }
    print(f"submitted {n} shards to Ray ({ray.cluster_resources().get('CPU', 0):.0f} CPUs)",
          file=sys.stderr)
    files, failed, pgn_parts, summary, decided = [], [], {}, "", None
    while pending:
        ready, _ = ray.wait(list(pending), num_returns=1)
        k = pending.pop(ready[0])
        try:
            res = ray.get(ready[0])
        except (ray.exceptions.RayError, OSError) as e:
            failed.append(k)
            print(f"shard {k}/{n} failed: {e}", file=sys.stderr)
            continue
        if res["returncode"] != 0:
            failed.append(k)
            print(f"shard {k}/{n} failed ({res['host']}): {res['stderr'].strip()}", file=sys.stderr)
        if res["json"] is None:
            continue
        path = os.path.join(args.out, f"shard-{k}.json")
        with open(path, "w", encoding="utf-8") as f:
            f.write(res["json"])
        files.append(path)
        if res["pgn"]:
            pgn_parts[k] = res["pgn"]
        summary, merged = merge(binary, args.out, sorted(files))
        sprt = merged.get("sprt")
        games = sum(merged["wdl"].values())
        print(
            f"shard {k}/{n} done on {res['host']} in {res['seconds']:.1f} s; merged "
            f"{len(files)}/{n} shards, {games} games"
            + (f", LLR {sprt['llr']:.2f} [{sprt['lower']:.2f}, {sprt['upper']:.2f}]" if sprt else ""),
            file=sys.stderr,
        )
        if sprt and sprt["verdict"] != "continue" and not args.no_early_stop and pending:
            decided = sprt["verdict"]
            print(f"SPRT accepted {decided}: cancelling {len(pending)} shards", file=sys.stderr)
            for ref in pending:
                ray.cancel(ref, force=True)
            pending = {}
    wall = time.time() - started
    ray.shutdown()
    if args.pgn and pgn_parts:
        with open(os.path.join(args.out, "games.pgn"), "w", encoding="utf-8") as f:
            for k in sorted(pgn_parts):
                f.write(pgn_parts[k])
    summary += f"Wall time: {wall:.1f} s for {len(files)} of {n} shards"
    summary += f" (stopped early: SPRT {decided})\n" if decided else "\n"
    with open(os.path.join(args.out, "summary.txt"), "w", encoding="utf-8") as f:
        f.write(summary)
    print(summary, end="")
    if failed:
        print(f"error: shards {sorted(failed)} failed", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
