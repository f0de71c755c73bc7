#!/usr/bin/env python3
"""CI: scripts/ray_match.py on a local Ray instance with two shards gives exactly the unsharded
`menagerie match` (same engines, book, seed, games and nodes): the merged result file has the
same counts, pentanomial pairs, statistics and SPRT state, and the collected PGN has the same
games, game by game (tags, moves, scores and depths; only the move times and the date differ).

Usage: python3 scripts/ci/test_ray_match.py [path/to/menagerie]   (from the repository root)
Needs scripts/requirements-ray.txt. Exit status 1 with a message on any difference.
"""

import json
import os
import re
import subprocess
import sys
import tempfile

# Keys of a result file that say how it was made, not what was played.
BOOKKEEPING = ("shard_count", "shards", "pgn_bytes")


def games(path):
    """{round: (tags without Date, movetext without move times)} of a match PGN."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    out = {}
    for chunk in re.split(r"\n(?=\[Event )", text.strip()):
        tags = dict(re.findall(r'^\[(\w+) "(.*)"\]$', chunk, re.M))
        body = " ".join(line for line in chunk.splitlines() if not line.startswith("["))
        # "{+0.41/4 0.002s}" -> "{+0.41/4}": the time is the wall clock's, and so are the line
        # breaks (they follow the comments' widths).
        body = " ".join(re.sub(r" \d+(\.\d+)?s\}", "}", body).split())
        tags.pop("Date", None)
        round_ = int(tags["Round"])
        if round_ in out:
            sys.exit(f"{path}: game {round_} twice")
        out[round_] = (tags, body)
    return out


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else "target/release/menagerie"
    # Fixed nodes on one thread: deterministic. Unequal budgets, so the pairs score differently;
    # an odd number of games, so the last pair is a single game. The SPRT is recorded and merged,
    # but cannot decide in 11 games (LLR about 0.1 of 2.94), so ray_match.py cancels no shard.
    args = ["--engine", f"{binary} name=big nodes=300",
            "--engine", f"{binary} name=small nodes=200",
            "--variant", "mystic", "--games", "11", "--openings", "tests/data/mystic.epd",
            "--openings-order", "random", "--seed", "3",
            "--sprt", "elo0=0 elo1=10 alpha=0.05 beta=0.05"]
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "ray")
        done = subprocess.run(
            [sys.executable, "scripts/ray_match.py", "--shards", "2", "--num-cpus", "2",
             "--menagerie", binary, "--out", out, "--pgn", "--", *args],
            capture_output=True, text=True,
        )
        if done.returncode != 0:
            sys.exit(f"ray_match.py failed:\n{done.stderr}")
        whole_json, whole_pgn = os.path.join(tmp, "whole.json"), os.path.join(tmp, "whole.pgn")
        subprocess.run([binary, "match", *args, "--json", whole_json, "--pgn", whole_pgn],
                       check=True, capture_output=True)
        with open(os.path.join(out, "merged.json"), encoding="utf-8") as f:
            merged = json.load(f)
        with open(whole_json, encoding="utf-8") as f:
            unsharded = json.load(f)
        if merged.get("shard_count") != 2 or merged.get("shards") != [1, 2]:
            sys.exit(f"merged.json: shards {merged.get('shards')} of {merged.get('shard_count')}")
        for key in sorted(set(merged) | set(unsharded)):
            if key not in BOOKKEEPING and merged.get(key) != unsharded.get(key):
                sys.exit(f"merged.json's {key!r} differs from the unsharded match's:\n"
                         f"  merged:    {json.dumps(merged.get(key))}\n"
                         f"  unsharded: {json.dumps(unsharded.get(key))}")
        sharded_games, whole_games = games(os.path.join(out, "games.pgn")), games(whole_pgn)
        if sorted(whole_games) != list(range(1, 12)):
            sys.exit(f"the unsharded PGN has games {sorted(whole_games)}")
        if sorted(sharded_games) != sorted(whole_games):
            sys.exit(f"games.pgn has games {sorted(sharded_games)}, the unsharded PGN "
                     f"{sorted(whole_games)}")
        for round_, (tags, body) in whole_games.items():
            sharded_tags, sharded_body = sharded_games[round_]
            if sharded_tags != tags:
                sys.exit(f"game {round_}'s tags differ:\n  sharded:   {sharded_tags}\n"
                         f"  unsharded: {tags}")
            if sharded_body != body:
                at = next((i for i, (a, b) in enumerate(zip(sharded_body, body)) if a != b),
                          min(len(body), len(sharded_body)))
                sys.exit(f"game {round_}'s moves differ from character {at}:\n"
                         f"  sharded:   ...{sharded_body[max(0, at - 40):at + 40]}\n"
                         f"  unsharded: ...{body[max(0, at - 40):at + 40]}")
        wdl, plies = merged["wdl"], sum(int(tags["PlyCount"]) for tags, _ in whole_games.values())
        print(f"ray match: 2 shards merged = the unsharded match, {len(whole_games)} games "
              f"(+{wdl['wins']} ={wdl['draws']} -{wdl['losses']}), {plies} plies")


if __name__ == "__main__":
    main()
