#!/usr/bin/env python3
"""Loads a `menagerie match --pgn` file of orthodox chess games with python-chess and checks it.

Every game must parse without errors, replay from its FEN tag (or the start position), and, when
its Termination tag is "normal", end in a position whose python-chess outcome gives the same
result. Prints one line per game and a total; exits 1 on any problem.

Usage: python3 scripts/check_pgn.py games.pgn   (installs python-chess with pip when missing)
"""
import subprocess
import sys

try:
    import chess.pgn
except ImportError:
    subprocess.check_call([sys.executable, "-m", "pip", "install", "--quiet", "chess"])
    import chess.pgn


def main(path):
    bad = 0
    count = 0
    with open(path, encoding="utf-8") as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            count += 1
            h = game.headers
            problems = [str(e) for e in game.errors]
            board = game.board()
            plies = 0
            for move in game.mainline_moves():
                board.push(move)
                plies += 1
            if h.get("PlyCount") and int(h["PlyCount"]) != plies:
                problems.append(f"PlyCount {h['PlyCount']} but {plies} moves")
            if h.get("Termination") == "normal":
                outcome = board.outcome(claim_draw=True)
                if outcome is None or outcome.result() != h["Result"]:
                    problems.append(f"result {h['Result']} but python-chess sees {outcome}")
            status = "ok" if not problems else "BAD: " + "; ".join(problems)
            print(f"game {h.get('Round', count)}: {h['White']} - {h['Black']} {h['Result']} "
                  f"({h.get('Termination')}, {plies} plies) {status}")
            bad += bool(problems)
    print(f"{count} games read by python-chess {chess.__version__}, {bad} with problems")
    return 1 if bad or count == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
