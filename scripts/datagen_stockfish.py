#!/usr/bin/env python3
"""Chess tuning data from Stockfish's games against itself, in `menagerie datagen`'s format.

Stockfish plays both sides at a fixed node budget from the start position after
`--random-plies` uniformly random legal plies. Every position it then moves from is kept when it
is quiet (side to move not in check, the move played neither a capture nor a promotion, the
score below `--max-score` centipawns) and not among the first `--skip` plies after the random
ones. Each kept line is `FEN | score | result`: Stockfish's score (centipawns, White's view,
Stockfish's own scale, which is not the engine's: tune with `--lambda 1`, results only, or give
`--k`) and the game's result for White (1, 0.5, 0). Games are adjudicated: a win once both
sides' scores agree on at least `--resign` centipawns for 4 plies in a row, a draw once the
score stays within 10 centipawns for 12 plies after ply 80, and a draw at `--max-plies`.

The point of the data: results from games better played than the engine's own self-play
(Stockfish 15.1 at 5,000 nodes is far stronger than menagerie at 8,000), so the result labels
carry less noise from the players' mistakes.

Setup: apt-get install stockfish; pip install chess (python-chess). Run by hand; the test command
does not need it.
Usage:  scripts/datagen_stockfish.py --games 4000 --nodes 5000 --jobs 2 --seed 1 --out sf.txt
            [--stockfish /usr/games/stockfish]
Then:   menagerie-tuning texel --variant chess --data sf.txt --lambda 1 ...
"""

import argparse
import multiprocessing
import random
import sys

import chess
import chess.engine


def play_game(engine, rng, args, game):
    """Plays one game; returns (lines without the result, result for White as '1'/'0.5'/'0')."""
    board = chess.Board()
    for _ in range(args.random_plies):
        moves = list(board.legal_moves)
        if not moves or board.is_game_over():
            break
        board.push(rng.choice(moves))
    if board.is_game_over(claim_draw=True):
        return [], None
    kept = []
    win_streak = {chess.WHITE: 0, chess.BLACK: 0}
    draw_streak = 0
    plies = 0
    result = None
    while True:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            result = {chess.WHITE: "1", chess.BLACK: "0", None: "0.5"}[outcome.winner]
            break
        if plies >= args.max_plies:
            result = "0.5"
            break
        info = engine.analyse(board, chess.engine.Limit(nodes=args.nodes), game=game)
        pv = info.get("pv")
        if not pv:
            result = "0.5"
            break
        move = pv[0]
        white_cp = info["score"].white().score(mate_score=100000)
        quiet = (
            not board.is_check()
            and not board.is_capture(move)
            and move.promotion is None
            and abs(white_cp) < args.max_score
        )
        if quiet and plies >= args.skip:
            kept.append(f"{board.fen()} | {white_cp}")
        # Adjudication.
        leader = chess.WHITE if white_cp > 0 else chess.BLACK
        if abs(white_cp) >= args.resign:
            win_streak[leader] += 1
            win_streak[not leader] = 0
        else:
            win_streak = {chess.WHITE: 0, chess.BLACK: 0}
        if win_streak[leader] >= 4:
            result = "1" if leader == chess.WHITE else "0"
            break
        if board.ply() > 80 and abs(white_cp) <= 10:
            draw_streak += 1
            if draw_streak >= 12:
                result = "0.5"
                break
        else:
            draw_streak = 0
        board.push(move)
        plies += 1
    return kept, result


def worker(job):
    args, first, count = job
    engine = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    engine.configure({"Threads": 1, "Hash": 16})
    out = []
    tally = {"1": 0, "0.5": 0, "0": 0}
    for g in range(first, first + count):
        rng = random.Random(args.seed * 1_000_003 + g)
        kept, result = play_game(engine, rng, args, g)
        if result is None:
            continue
        tally[result] += 1
        out.append(f"# game {g} result {result} positions {len(kept)}")
        out.extend(f"{line} | {result}" for line in kept)
    engine.quit()
    return out, tally


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, required=True)
    ap.add_argument("--nodes", type=int, default=5000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--random-plies", type=int, default=8)
    ap.add_argument("--skip", type=int, default=2, help="plies after the random ones not kept")
    ap.add_argument("--max-plies", type=int, default=400)
    ap.add_argument("--max-score", type=int, default=2500)
    ap.add_argument("--resign", type=int, default=1000)
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    chunk = 50
    jobs = [(args, g, min(chunk, args.games - g)) for g in range(0, args.games, chunk)]
    total = {"1": 0, "0.5": 0, "0": 0}
    positions = 0
    with open(args.out, "w") as f, multiprocessing.Pool(args.jobs) as pool:
        for lines, tally in pool.imap(worker, jobs):
            for line in lines:
                f.write(line + "\n")
                positions += not line.startswith("#")
            for k in total:
                total[k] += tally[k]
            done = sum(total.values())
            print(f"games {done}  positions {positions}  "
                  f"W {total['1']} D {total['0.5']} L {total['0']}", file=sys.stderr)


if __name__ == "__main__":
    main()
