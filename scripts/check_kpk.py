#!/usr/bin/env python3
"""Checks menagerie's KPK knowledge (src/variants/chess/endgame.rs) against Stockfish.

Random legal King and Pawn against King positions (either colour, either side to move) are
given to both engines: menagerie's `eval` says whether the position is a known draw (its
"Known endgame" line scales the score to 0); Stockfish searches to a depth and a score beyond
+-2 pawns (or a mate) counts as a win for the side with the pawn. Prints every disagreement
and the counts. Run by hand (needs python-chess and /usr/games/stockfish):

    pip install chess && apt-get install stockfish
    python3 scripts/check_kpk.py [positions] [depth] [engine]
"""
import random
import subprocess
import sys

import chess
import chess.engine


def random_kpk(rng):
    while True:
        b = chess.Board(None)
        strong = rng.choice([chess.WHITE, chess.BLACK])
        sq = rng.sample(range(64), 3)
        if chess.square_rank(sq[2]) in (0, 7):
            continue
        b.set_piece_at(sq[0], chess.Piece(chess.KING, strong))
        b.set_piece_at(sq[1], chess.Piece(chess.KING, not strong))
        b.set_piece_at(sq[2], chess.Piece(chess.PAWN, strong))
        b.turn = rng.choice([chess.WHITE, chess.BLACK])
        if b.is_valid() and not b.is_game_over():
            return b, strong


def menagerie_draws(proc, fen):
    proc.stdin.write(f"position fen {fen}\neval\nisready\n")
    proc.stdin.flush()
    drawn = False
    while True:
        line = proc.stdout.readline()
        if not line or line.strip() == "readyok":
            return drawn
        if line.startswith("Known endgame") and "0/64" in line:
            drawn = True


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    depth = int(sys.argv[2]) if len(sys.argv) > 2 else 24
    exe = sys.argv[3] if len(sys.argv) > 3 else "target/release/menagerie"
    rng = random.Random(1)
    ours = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    ours.stdin.write("uci\n")
    sf = chess.engine.SimpleEngine.popen_uci("/usr/games/stockfish")
    agree = disagree = 0
    for _ in range(n):
        b, strong = random_kpk(rng)
        info = sf.analyse(b, chess.engine.Limit(depth=depth))
        score = info["score"].pov(strong)
        sf_win = score.is_mate() or score.score() > 200
        our_draw = menagerie_draws(ours, b.fen())
        if sf_win == (not our_draw):
            agree += 1
        else:
            disagree += 1
            print(f"disagree: {b.fen()} stockfish {score} menagerie {'draw' if our_draw else 'win'}")
    sf.quit()
    ours.stdin.write("quit\n")
    ours.stdin.flush()
    print(f"{agree} agree, {disagree} disagree")


if __name__ == "__main__":
    main()
