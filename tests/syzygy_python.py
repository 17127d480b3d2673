#!/usr/bin/env python3
"""Checks guoxiang's Syzygy tablebase play against python-chess's own tablebase reader (an independent oracle).

Usage: python3 tests/syzygy_python.py target/release/guoxiang [TABLE_DIR] [POSITIONS]

`guoxiang uci` gets `SyzygyPath TABLE_DIR` (default: the committed fixtures, crates/syzygy/tests/tables). For
random legal positions of the materials whose tables are all there (every capture and promotion from them must
lead to a table present too), python-chess's `chess.syzygy` judges every legal move; then guoxiang must:

- play a move that keeps the best result (win, draw or loss, under the 50-move rule from a fresh count);
- when winning, play a move that reaches the next capture or pawn move soonest (DTZ), and when losing, one that
  puts it off longest — the engine's root rule, checked with the oracle's distances;
- report a score that says the same: a win above 190 pawns (or a mate), a draw 0 (±1 for a cursed win or a blessed
  loss), a loss below −190 pawns (or being mated).

Exits non-zero on the first disagreement, printing the position.
"""

import os
import random
import sys

import chess
import chess.engine
import chess.syzygy

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_DIR = os.path.join(HERE, "..", "crates", "syzygy", "tests", "tables")
TIMEOUT = 60


def check(cond, what, board=None):
    if not cond:
        print("FAIL:", what, board.fen() if board is not None else "")
        sys.exit(1)


def materials(directory):
    """Materials with both files present, e.g. 'KRPvK'."""
    names = set(f[:-5] for f in os.listdir(directory) if f.endswith(".rtbw"))
    return sorted(n for n in names if os.path.exists(os.path.join(directory, n + ".rtbz")))


def random_position(material, rng):
    white, black = material.split("v")
    letters = {"K": chess.KING, "Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP, "N": chess.KNIGHT,
               "P": chess.PAWN}
    for _ in range(1000):
        board = chess.Board(None)
        squares = rng.sample(range(64), len(white) + len(black))
        ok = True
        for sq, (color, ch) in zip(squares, [(chess.WHITE, c) for c in white] + [(chess.BLACK, c) for c in black]):
            if ch == "P" and chess.square_rank(sq) in (0, 7):
                ok = False
                break
            board.set_piece_at(sq, chess.Piece(letters[ch], color))
        if not ok:
            continue
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        if board.is_valid() and not board.is_checkmate() and not board.is_stalemate():
            return board
    return None


def judge(tb, board):
    """Per legal move: (result for the mover -2..2, plies to the next zeroing move), or None if a table is missing."""
    out = {}
    for move in board.legal_moves:
        zeroing = board.is_zeroing(move)
        board.push(move)
        try:
            if board.is_checkmate():
                out[move] = (2, 1)
            elif board.is_stalemate() or board.is_insufficient_material() and len(board.piece_map()) == 2:
                out[move] = (0, 0)
            else:
                wdl = -tb.probe_wdl(board)
                dtz = abs(tb.probe_dtz(board))
                out[move] = (wdl, 1 if zeroing else dtz + 1)
        except (KeyError, chess.syzygy.MissingTableError):
            return None
        finally:
            board.pop()
    return out


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        sys.exit(2)
    binary = sys.argv[1]
    directory = os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else DEFAULT_DIR)
    per_material = int(sys.argv[3]) if len(sys.argv) > 3 else 12
    rng = random.Random(20261205)
    tb = chess.syzygy.open_tablebase(directory)
    engine = chess.engine.SimpleEngine.popen_uci([binary, "uci"], timeout=TIMEOUT)
    engine.configure({"SyzygyPath": directory})
    checked = {"win": 0, "draw": 0, "loss": 0}
    try:
        for material in materials(directory):
            done = 0
            for _ in range(per_material * 20):
                if done == per_material:
                    break
                board = random_position(material, rng)
                if board is None:
                    break
                judged = judge(tb, board)
                if judged is None:
                    continue
                best = max(w for w, _ in judged.values())
                info = engine.analyse(board, chess.engine.Limit(depth=3))
                move = info["pv"][0]
                check(move in judged, f"{material}: {move} is not legal", board)
                wdl, dist = judged[move]
                check(wdl == best, f"{material}: {move} gives {wdl}, the best is {best}", board)
                if best == 2:
                    fastest = min(d for w, d in judged.values() if w == 2)
                    check(dist == fastest, f"{material}: {move} zeroes in {dist} plies, the fastest in {fastest}",
                          board)
                elif best == -2:
                    slowest = max(d for w, d in judged.values() if w == -2)
                    check(dist == slowest, f"{material}: {move} zeroes in {dist} plies, the slowest in {slowest}",
                          board)
                score = info["score"].relative
                if best == 2:
                    check(score.is_mate() and score.mate() > 0 or (score.score() or 0) > 19000,
                          f"{material}: a win scored {score}", board)
                    checked["win"] += 1
                elif best == -2:
                    check(score.is_mate() and score.mate() < 0 or (score.score() or 0) < -19000,
                          f"{material}: a loss scored {score}", board)
                    checked["loss"] += 1
                else:
                    check(not score.is_mate() and abs(score.score()) <= 1, f"{material}: a draw scored {score}",
                          board)
                    checked["draw"] += 1
                check(info.get("tbhits", 0) > 0, f"{material}: no tbhits reported", board)
                done += 1
            print(f"ok: {material}: {done} positions")
    finally:
        engine.quit()
    total = sum(checked.values())
    check(total > 0, "no position checked")
    print(f"ok: {total} positions ({checked['win']} won, {checked['draw']} drawn, {checked['loss']} lost): "
          "guoxiang's moves and scores agree with python-chess's tables")


if __name__ == "__main__":
    main()
