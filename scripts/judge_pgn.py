#!/usr/bin/env python3
"""Where and how an engine's games were lost: clock use, and Stockfish's judgement move by move.

Reads a chess PGN written by `menagerie match` (its move comments are `{<score>/<depth>
<seconds>s}`) and reports, for one player (`--player`, default `menagerie`):

- clock use: the seconds it spent on its first 20 moves and the seconds left on its clock at
  the end of each game, next to its opponent's (both read from the move comments and the
  `TimeControl` tag: base + increment per move - time spent);
- with `--depth D` (needs Stockfish): after each of the player's moves, Stockfish's evaluation
  at depth D from the player's side, in centipawns (mates count as +-3000); per game the
  evaluation after the player's 12th, 20th and 30th move and the first move where it fell
  below -`--lost` centipawns; and over all games the means and the share of lost games that
  were already lost by move 20 (an early drift points at the opening and middlegame play,
  a late one at tactics and endgames).

Setup: apt-get install stockfish; pip install chess (python-chess). Run by hand; the test
command does not need it.
Usage:  scripts/judge_pgn.py games.pgn                    # clock use only, no engine needed
        scripts/judge_pgn.py games.pgn --depth 12         # with Stockfish's evaluations
            [--player menagerie] [--lost 150] [--stockfish /usr/games/stockfish]
Measured: 40 games at 10+0.1 against Stockfish UCI_Elo 2400 took about two minutes at depth 12.
"""

import argparse
import re
import statistics
import sys

try:
    import chess
    import chess.engine
    import chess.pgn
except ImportError:
    sys.exit("python-chess is missing: pip install chess")

MATE = 3000
TIME = re.compile(r"([0-9]+(?:\.[0-9]+)?)s\s*$")


def move_seconds(node):
    """Seconds spent on the move of `node`, from its comment, or None."""
    m = TIME.search(node.comment.strip())
    return float(m.group(1)) if m else None


def clock(tc):
    """(base, increment) in seconds of a `TimeControl` tag such as `10+0.1`, or None."""
    m = re.fullmatch(r"([0-9.]+)\+([0-9.]+)", tc or "")
    return (float(m.group(1)), float(m.group(2))) if m else None


def fmt(x):
    return "-" if x is None else str(x)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("pgn")
    ap.add_argument("--player", default="menagerie", help="the player judged (PGN name)")
    ap.add_argument("--depth", type=int, default=0, help="Stockfish depth (0: clock use only)")
    ap.add_argument("--lost", type=int, default=150, help="centipawns counted as lost")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    a = ap.parse_args()

    engine = None
    if a.depth > 0:
        engine = chess.engine.SimpleEngine.popen_uci(a.stockfish)
        engine.configure({"Hash": 32, "Threads": 1})

    rows = []
    with open(a.pgn) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            h = game.headers
            if a.player not in (h.get("White"), h.get("Black")):
                continue
            us = chess.WHITE if h.get("White") == a.player else chess.BLACK
            tc = clock(h.get("TimeControl"))
            spent = {chess.WHITE: [], chess.BLACK: []}
            evals = []  # (our move number, evaluation from our side)
            board = game.board()
            for node in game.mainline():
                mover = board.turn
                board.push(node.move)
                t = move_seconds(node)
                if t is not None:
                    spent[mover].append(t)
                if engine is not None and mover == us:
                    info = engine.analyse(board, chess.engine.Limit(depth=a.depth))
                    evals.append((len(evals) + 1, info["score"].pov(us).score(mate_score=MATE)))
            result = h.get("Result", "*")
            score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(result)
            if score is not None and us == chess.BLACK:
                score = 1.0 - score
            row = {"round": h.get("Round", "?"), "colour": "W" if us else "B", "score": score}
            if tc is not None:
                base, inc = tc
                for side, key in ((us, "left"), (not us, "opp_left")):
                    row[key] = base + inc * len(spent[side]) - sum(spent[side])
                row["first20"] = sum(spent[us][:20])
                row["opp_first20"] = sum(spent[not us][:20])
            if evals:
                at = lambda n: next((e for k, e in evals if k >= n), None)
                row["e12"], row["e20"], row["e30"] = at(12), at(20), at(30)
                row["lost_at"] = next((k for k, e in evals if e <= -a.lost), None)
            rows.append(row)
    if engine is not None:
        engine.quit()
    if not rows:
        sys.exit(f"no game of {a.player} in {a.pgn}")

    for r in rows:
        line = f"round {r['round']:>4} {r['colour']} score {fmt(r['score'])}"
        if "left" in r:
            line += (f"  first 20 moves {r['first20']:.1f}s (opponent {r['opp_first20']:.1f}s)"
                     f"  left {r['left']:.1f}s (opponent {r['opp_left']:.1f}s)")
        if "e12" in r:
            line += (f"  eval @12 {fmt(r['e12'])} @20 {fmt(r['e20'])} @30 {fmt(r['e30'])}"
                     f"  below -{a.lost} from move {fmt(r['lost_at'])}")
        print(line)

    def mean(key):
        v = [r[key] for r in rows if r.get(key) is not None]
        return (statistics.mean(v), len(v)) if v else (None, 0)

    print(f"{len(rows)} games of {a.player}")
    if "left" in rows[0]:
        print("mean seconds on the first 20 moves: %.2f (opponent %.2f); left at the end: %.2f "
              "(opponent %.2f)" % (mean("first20")[0], mean("opp_first20")[0], mean("left")[0],
                                   mean("opp_left")[0]))
    if "e12" in rows[0]:
        for key in ("e12", "e20", "e30"):
            m, n = mean(key)
            print(f"mean evaluation after move {key[1:]}: {m:+.0f} cp over {n} games" if n else
                  f"no game reached move {key[1:]}")
        lost = [r for r in rows if r["score"] == 0.0]
        early = [r for r in lost if r["lost_at"] is not None and r["lost_at"] <= 20]
        if lost:
            print(f"lost games: {len(lost)}; below -{a.lost} by move 20 in {len(early)} "
                  f"({100 * len(early) / len(lost):.0f}%)")


if __name__ == "__main__":
    main()
