#!/usr/bin/env python3
"""Play menagerie against a strength-limited Stockfish at a fast time control.

Plays N games (default 40) at 10+0.1 (10 s per side plus 0.1 s per move) between
target/release/menagerie and Stockfish with UCI_LimitStrength / UCI_Elo 1800, alternating
colours: every opening line of OPENINGS below is played twice, once with each colour.
No adjudication: a game ends only by the rules (checkmate, stalemate, threefold repetition,
fifty-move rule, insufficient material), by a time loss, or by an engine failure (illegal move,
no move, crash or hang), which loses the game for the failing engine and is counted.

Every game goes to a PGN file; a line of progress is printed after each game and the score
(W/D/L, percentage, Elo difference with a 95% interval) at the end.

Setup (Debian/Ubuntu):
    apt-get install stockfish          # Stockfish 15.1 in /usr/games/stockfish
    pip install chess                  # python-chess (the UCI client)
    cargo build --release              # target/release/menagerie

Usage:
    scripts/play_vs_stockfish.py                     # 40 games, 10+0.1, Elo 1800
    scripts/play_vs_stockfish.py --games 6 --pgn /tmp/sf6.pgn
    scripts/play_vs_stockfish.py --tc 5+0.05 --elo 1500

Both engines run single-threaded with a 16 MiB hash, one game at a time. A 40-game match at
10+0.1 takes about 25 minutes of two cores.
"""

import argparse
import datetime
import math
import os
import sys
import time

try:
    import chess
    import chess.engine
    import chess.pgn
except ImportError:
    sys.exit("python-chess is missing: pip install chess")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Short opening lines (SAN from the start position), each played once with each colour.
OPENINGS = [
    ("Ruy Lopez", "e4 e5 Nf3 Nc6 Bb5 a6"),
    ("Italian Game", "e4 e5 Nf3 Nc6 Bc4 Bc5"),
    ("Two Knights", "e4 e5 Nf3 Nc6 Bc4 Nf6"),
    ("Scotch Game", "e4 e5 Nf3 Nc6 d4 exd4"),
    ("Petrov Defence", "e4 e5 Nf3 Nf6"),
    ("Sicilian Najdorf", "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6"),
    ("Sicilian Alapin", "e4 c5 c3 Nf6 e5 Nd5"),
    ("French Defence", "e4 e6 d4 d5 Nc3 Nf6"),
    ("Caro-Kann", "e4 c6 d4 d5 e5 Bf5"),
    ("Scandinavian", "e4 d5 exd5 Qxd5 Nc3 Qa5"),
    ("Pirc Defence", "e4 d6 d4 Nf6 Nc3 g6"),
    ("Alekhine Defence", "e4 Nf6 e5 Nd5 d4 d6"),
    ("Queen's Gambit Declined", "d4 d5 c4 e6 Nc3 Nf6"),
    ("Slav Defence", "d4 d5 c4 c6 Nf3 Nf6"),
    ("Queen's Gambit Accepted", "d4 d5 c4 dxc4 Nf3 Nf6"),
    ("King's Indian", "d4 Nf6 c4 g6 Nc3 Bg7 e4 d6"),
    ("Nimzo-Indian", "d4 Nf6 c4 e6 Nc3 Bb4"),
    ("Dutch Defence", "d4 f5 g3 Nf6 Bg2 e6"),
    ("English Opening", "c4 e5 Nc3 Nf6 g3 d5"),
    ("Reti Opening", "Nf3 d5 g3 Nf6 Bg2 c6"),
]


def parse_tc(tc):
    """'10+0.1' -> (10.0, 0.1) seconds."""
    base, _, inc = tc.partition("+")
    return float(base), float(inc or 0)


def elo_diff(score, n):
    """Elo difference and 95% interval half-width from a score fraction over n games."""
    if n == 0 or score <= 0 or score >= 1:
        return None, None
    diff = -400 * math.log10(1 / score - 1)
    # Normal approximation of the score's standard error (conservative: ignores draws).
    se = math.sqrt(score * (1 - score) / n)
    lo, hi = max(score - 1.96 * se, 1e-6), min(score + 1.96 * se, 1 - 1e-6)
    return diff, (-400 * math.log10(1 / hi - 1) - -400 * math.log10(1 / lo - 1)) / 2


def start_engine(path, options, name):
    engine = chess.engine.SimpleEngine.popen_uci(path, timeout=30)
    for key, value in options.items():
        if key in engine.options:
            engine.configure({key: value})
        else:
            print(f"  note: {name} has no option {key}", file=sys.stderr)
    return engine


def play_game(engines, names, opening_san, tc, margin, game_id):
    """Plays one game. engines/names indexed by chess.WHITE/BLACK (True/False).

    Returns (pgn game, result string, termination text, failure) where failure is None or
    (color, kind) with kind one of 'illegal', 'crash', 'time'.
    """
    board = chess.Board()
    for san in opening_san.split():
        board.push_san(san)
    base, inc = tc
    clock = {chess.WHITE: base, chess.BLACK: base}

    failure = None
    termination = None
    while True:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            termination = outcome.termination.name.lower().replace("_", " ")
            result = outcome.result()
            break
        color = board.turn
        limit = chess.engine.Limit(
            white_clock=max(clock[chess.WHITE], 0.001),
            black_clock=max(clock[chess.BLACK], 0.001),
            white_inc=inc,
            black_inc=inc,
        )
        t0 = time.monotonic()
        try:
            # A new `game` object makes python-chess send `ucinewgame` first.
            played = engines[color].play(board, limit, game=game_id)
        except chess.engine.EngineTerminatedError as e:
            failure, termination = (color, "crash"), f"{names[color]} crashed: {e}"
        except chess.engine.EngineError as e:
            failure, termination = (color, "illegal"), f"{names[color]} sent an illegal move: {e}"
        except Exception as e:  # timeouts of a hung engine, protocol garbage
            failure, termination = (color, "crash"), f"{names[color]} failed: {type(e).__name__} {e}"
        else:
            elapsed = time.monotonic() - t0
            clock[color] -= elapsed
            if played.move is None or played.move not in board.legal_moves:
                failure, termination = (color, "illegal"), f"{names[color]} sent no legal move ({played.move})"
            elif clock[color] < -margin:
                failure, termination = (color, "time"), f"{names[color]} lost on time ({clock[color]:.3f} s)"
            else:
                clock[color] += inc
                board.push(played.move)
                continue
        result = "0-1" if failure[0] == chess.WHITE else "1-0"
        break

    game = chess.pgn.Game.from_board(board)
    game.headers["Event"] = "menagerie vs Stockfish"
    game.headers["Date"] = datetime.date.today().strftime("%Y.%m.%d")
    game.headers["White"] = names[chess.WHITE]
    game.headers["Black"] = names[chess.BLACK]
    game.headers["Result"] = result
    game.headers["TimeControl"] = f"{tc[0]:g}+{tc[1]:g}"
    game.headers["Termination"] = termination
    return game, result, termination, failure


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=40, help="number of games (default 40)")
    ap.add_argument("--tc", default="10+0.1", help="time control base+increment in seconds (default 10+0.1)")
    ap.add_argument("--elo", type=int, default=1800, help="Stockfish UCI_Elo (default 1800)")
    ap.add_argument("--engine", default=os.path.join(ROOT, "target", "release", "menagerie"))
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--pgn", default="vs_stockfish.pgn", help="PGN output file (overwritten)")
    ap.add_argument("--hash", type=int, default=16, help="hash size in MiB for both engines")
    ap.add_argument(
        "--margin",
        type=float,
        default=0.05,
        help="seconds an engine may overrun its clock before losing on time, for the"
        " process/communication overhead the referee measures (default 0.05)",
    )
    args = ap.parse_args()

    for path, hint in ((args.engine, "cargo build --release"), (args.stockfish, "apt-get install stockfish")):
        if not os.access(path, os.X_OK):
            sys.exit(f"{path} not found or not executable: {hint}")

    tc = parse_tc(args.tc)
    me_name, sf_name = "menagerie", f"Stockfish {args.elo}"
    me_opts = {"Threads": 1, "Hash": args.hash}
    sf_opts = {"Threads": 1, "Hash": args.hash, "UCI_LimitStrength": True, "UCI_Elo": args.elo}
    me = start_engine(args.engine, me_opts, me_name)
    sf = start_engine(args.stockfish, sf_opts, sf_name)

    wins = draws = losses = 0
    failures = {"illegal": [0, 0], "crash": [0, 0], "time": [0, 0]}  # [menagerie, stockfish]
    print(f"{args.games} games at {args.tc}, {me_name} vs {sf_name}, PGN -> {args.pgn}", flush=True)
    started = time.monotonic()
    with open(args.pgn, "w") as pgn:
        for i in range(args.games):
            name, line = OPENINGS[(i // 2) % len(OPENINGS)]
            me_white = i % 2 == 0
            engines = {chess.WHITE: me if me_white else sf, chess.BLACK: sf if me_white else me}
            names = {chess.WHITE: me_name if me_white else sf_name, chess.BLACK: sf_name if me_white else me_name}
            game, result, termination, failure = play_game(engines, names, line, tc, args.margin, i)
            game.headers["Round"] = str(i + 1)
            game.headers["Opening"] = name
            print(game, file=pgn, end="\n\n", flush=True)

            me_color = chess.WHITE if me_white else chess.BLACK
            if result == "1/2-1/2":
                draws += 1
                outcome = "draw"
            elif (result == "1-0") == me_white:
                wins += 1
                outcome = "win"
            else:
                losses += 1
                outcome = "loss"
            if failure is not None:
                who = 0 if failure[0] == me_color else 1
                failures[failure[1]][who] += 1
                # A crashed or hung engine is restarted for the next game.
                if failure[1] == "crash":
                    if who == 0:
                        try:
                            me.quit()
                        except Exception:
                            pass
                        me = start_engine(args.engine, me_opts, me_name)
                    else:
                        try:
                            sf.quit()
                        except Exception:
                            pass
                        sf = start_engine(args.stockfish, sf_opts, sf_name)
            n = i + 1
            pct = 100 * (wins + draws / 2) / n
            colour = "white" if me_white else "black"
            plies = len(list(game.mainline_moves()))
            print(
                f"game {n:3}/{args.games} {name:24} menagerie {colour:5} {result:7} {outcome:4}"
                f" ({termination}, {plies} plies)  total +{wins} ={draws} -{losses} ({pct:.1f}%)",
                flush=True,
            )

    for e in (me, sf):
        try:
            e.quit()
        except Exception:
            pass

    n = wins + draws + losses
    score = (wins + draws / 2) / n if n else 0
    print()
    print(f"Score of menagerie vs {sf_name} at {args.tc}: W {wins}  D {draws}  L {losses}  ({100 * score:.1f}%)")
    diff, err = elo_diff(score, n)
    if diff is not None:
        print(f"Elo difference: {diff:+.0f} +/- {err:.0f} (95%), i.e. menagerie ~ {args.elo + diff:.0f} on Stockfish's UCI_Elo scale")
    for kind in ("illegal", "crash", "time"):
        m, s = failures[kind]
        print(f"{kind:8} menagerie {m}  stockfish {s}")
    print(f"PGN: {args.pgn}   wall time {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
