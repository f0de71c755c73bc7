#!/usr/bin/env python3
"""CI: scripts/ray_datagen.py on a local Ray instance with two shards gives exactly the
positions of the unsharded `menagerie datagen` run (same seed, games and nodes), record for record.

Usage: python3 scripts/ci/test_ray_datagen.py [path/to/menagerie]   (from the repository root)
Needs scripts/requirements-ray.txt. Exit status 1 with a message on any difference.
"""

import os
import struct
import subprocess
import sys
import tempfile


def records(path):
    """(variant, [(ply, score, result, fen)]) of an MDG1 file (tools/datafile.rs's layout)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"MDG1":
        sys.exit(f"{path}: no MDG1 header")
    n = data[4]
    variant = data[5 : 5 + n].decode()
    at, out = 5 + n, []
    while at < len(data):
        _game, ply, score, result, m = struct.unpack_from("<IHhBH", data, at)
        at += 11
        out.append((ply, score, result, data[at : at + m].decode()))
        at += m
    return variant, out


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else "target/release/menagerie"
    args = ["--variant", "mystic", "--games", "6", "--nodes", "300", "--seed", "5"]
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "ray")
        done = subprocess.run(
            [sys.executable, "scripts/ray_datagen.py", "--shards", "2", "--num-cpus", "2",
             "--menagerie", binary, "--out", out, "--", *args],
            capture_output=True, text=True,
        )
        if done.returncode != 0:
            sys.exit(f"ray_datagen.py failed:\n{done.stderr}")
        whole = os.path.join(tmp, "whole.bin")
        subprocess.run([binary, "datagen", *args, "--format", "bin", "--out", whole],
                       check=True, capture_output=True)
        v1, merged = records(os.path.join(out, "data.bin"))
        v2, unsharded = records(whole)
        if v1 != "mystic" or v2 != "mystic":
            sys.exit(f"variants {v1}, {v2}")
        if not merged:
            sys.exit("no positions")
        if merged != unsharded:
            sys.exit(f"the merged shards ({len(merged)} positions) differ from the unsharded "
                     f"run ({len(unsharded)})")
        print(f"ray datagen: 2 shards merged = the unsharded run, {len(merged)} positions")


if __name__ == "__main__":
    main()
