#!/usr/bin/env python3
"""Self-play training data on Ray: `menagerie datagen` run as N shards, then merged.

Each shard K of N is one Ray task: on a worker it runs
    menagerie datagen <your datagen arguments> --format bin --shard K/N --out <tmp>
and returns the file's bytes to this driver through Ray's object store (no shared file system
is needed). The driver writes them as <out>/shard-K.bin and, when all are in, joins them with
    menagerie datagen merge shard-1.bin ... shard-N.bin --out <out>/data.bin
(each position kept once, games renumbered). The shards of a run are disjoint and
deterministic: for a seed, node budget and build, the merged file holds exactly the positions
of the unsharded run (tested by scripts/ci/test_ray_datagen.py).

Requirements: scripts/requirements-ray.txt, and `cargo build --release`.

On this machine (a local Ray instance, started and stopped by the script):
    python3 scripts/ray_datagen.py --shards 4 --out /tmp/data -- \\
        --variant mystic --games 2000 --nodes 5000 --seed 1

On a cluster (every node has the binary at the same path, relative to --cwd):
    ray start --head --port=6379                 # on the head node
    ray start --address=<head>:6379              # on each worker node
    python3 scripts/ray_datagen.py --address auto --shards 64 --out /tmp/data -- ...

Each task reserves as many CPUs as the shard's --threads (default 1). Exit status: 0 when every
shard finished and the merge succeeded; 1 otherwise (with the failing shards named, and the
shards that finished kept under --out).

A run is resumable: each shard is written as <out>/shard-K.bin only once it is whole (through a
temporary file and a rename), and a line is appended to <out>/shards.tsv (shard, sha256, bytes,
seconds, host, datagen's summary). With --resume, shards whose file is already there are not
played again, so a run stopped at any moment loses only the shards under way.
"""

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
import time

import ray


def _die_with_parent():
    """In the forked child: SIGKILL when the Ray worker that started it dies."""
    try:
        import ctypes
        import signal

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except OSError:
        pass


@ray.remote
def run_shard(binary, cwd, datagen_args, k, n):
    """Runs shard k/n of the datagen run on this worker; returns its outputs as a dict."""
    started = time.time()
    with tempfile.TemporaryDirectory(prefix=f"menagerie-datagen{k}-") as tmp:
        out = os.path.join(tmp, "shard.bin")
        cmd = [binary, "datagen", *datagen_args, "--format", "bin", "--shard", f"{k}/{n}",
               "--out", out]
        proc = subprocess.run(
            cmd,
            cwd=cwd,
            capture_output=True,
            text=True,
            preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None,
        )
        data = None
        if proc.returncode == 0 and os.path.exists(out):
            with open(out, "rb") as f:
                data = f.read()
        return {
            "shard": k,
            "returncode": proc.returncode,
            "stdout": proc.stdout,
            "stderr": proc.stderr,
            "data": data,
            "seconds": time.time() - started,
            "host": os.uname().nodename,
        }


def shard_path(out, k):
    """Where shard k of a run is kept."""
    return os.path.join(out, f"shard-{k}.bin")


def write_atomically(path, data):
    """Writes data to path through a temporary file in the same directory and a rename, so
    that path is either absent or whole."""
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        usage="%(prog)s [options] -- <menagerie datagen arguments>",
    )
    parser.add_argument("--shards", type=int, default=4, help="number of shards N (default 4)")
    parser.add_argument(
        "--address",
        default=None,
        help="Ray cluster address for ray.init(address=...); without it a local Ray instance "
        "is started",
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
    parser.add_argument("--out", default="ray_datagen_out", help="directory for the files")
    parser.add_argument(
        "--resume", action="store_true",
        help="keep the shards already in --out and play only the missing ones",
    )
    parser.add_argument(
        "--only", default=None, metavar="A-B",
        help="play only shards A to B (1-based, inclusive), for a machine that gives part of a "
        "run; no data.bin is merged",
    )
    argv = sys.argv[1:]
    if "--" in argv:
        split = argv.index("--")
        own, datagen_args = argv[:split], argv[split + 1 :]
    else:
        own, datagen_args = argv, []
    args = parser.parse_args(own)
    if not datagen_args:
        parser.error("give the datagen arguments after --")
    for owned in ("--shard", "--out", "--format"):
        if owned in datagen_args:
            parser.error(f"{owned} is set by the script for each shard; leave it out")
    if args.shards < 1:
        parser.error("--shards must be at least 1")
    threads = 1
    if "--threads" in datagen_args:
        threads = int(datagen_args[datagen_args.index("--threads") + 1])
    only = range(1, args.shards + 1)
    if args.only is not None:
        try:
            a, b = (int(x) for x in args.only.split("-"))
        except ValueError:
            parser.error("--only takes A-B, two shard numbers")
        if not 1 <= a <= b <= args.shards:
            parser.error(f"--only {args.only}: need 1 <= A <= B <= {args.shards}")
        only = range(a, b + 1)
    binary = os.path.join(args.cwd, args.menagerie)
    if not os.path.exists(binary):
        parser.error(f"{binary} not found (cargo build --release, or --menagerie)")
    os.makedirs(args.out, exist_ok=True)

    started = time.time()
    if args.address is None:
        ray.init(num_cpus=args.num_cpus)
    else:
        ray.init(address=args.address)
    n = args.shards
    files, failed = {}, []
    for k in range(1, n + 1):
        path = shard_path(args.out, k)
        if os.path.exists(path):
            if not args.resume:
                parser.error(f"{path} exists: give --resume to keep it, or another --out")
            files[k] = path
    pending = {
        run_shard.options(num_cpus=threads).remote(binary, args.cwd, datagen_args, k, n): k
        for k in only
        if k not in files
    }
    print(f"submitted {len(pending)} of {n} datagen shards to Ray "
          f"({ray.cluster_resources().get('CPU', 0):.0f} CPUs)", file=sys.stderr)
    while pending:
        ready, _ = ray.wait(list(pending), num_returns=1)
        k = pending.pop(ready[0])
        try:
            res = ray.get(ready[0])
        except (ray.exceptions.RayError, OSError) as e:
            failed.append(k)
            print(f"shard {k}/{n} failed: {e}", file=sys.stderr)
            continue
        if res["returncode"] != 0 or res["data"] is None:
            failed.append(k)
            print(f"shard {k}/{n} failed ({res['host']}): {res['stderr'].strip()}",
                  file=sys.stderr)
            continue
        path = shard_path(args.out, k)
        write_atomically(path, res["data"])
        with open(os.path.join(args.out, "shards.tsv"), "a") as log:
            log.write(f"{k}\t{hashlib.sha256(res['data']).hexdigest()}\t{len(res['data'])}\t"
                      f"{res['seconds']:.1f}\t{res['host']}\t{res['stdout'].strip()}\n")
        files[k] = path
        print(f"shard {k}/{n} done on {res['host']} in {res['seconds']:.1f} s: "
              f"{res['stdout'].strip()}", file=sys.stderr)
    ray.shutdown()
    if failed:
        print(f"error: shards {sorted(failed)} failed; the others are in {args.out}",
              file=sys.stderr)
        return 1
    if args.only is not None:
        print(f"wall time {time.time() - started:.1f} s for shards {args.only}; not merged")
        return 0
    merged = os.path.join(args.out, "data.bin")
    proc = subprocess.run(
        [binary, "datagen", "merge", *[files[k] for k in sorted(files)], "--out",
         merged + ".tmp"],
        capture_output=True, text=True,
    )
    if proc.returncode != 0:
        print(f"error: merge failed: {proc.stderr.strip()}", file=sys.stderr)
        return 1
    os.replace(merged + ".tmp", merged)
    print(proc.stdout.strip())
    print(f"wall time {time.time() - started:.1f} s for {n} shards")
    return 0


if __name__ == "__main__":
    sys.exit(main())
