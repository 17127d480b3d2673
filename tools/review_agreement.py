#!/usr/bin/env python3
"""How `guoxiang review` agrees with an independent engine (Stockfish, dev-only) on what a mistake is.

    python3 tools/review_agreement.py GAMES.pgn REVIEW.jsonl [--stockfish /usr/games/stockfish] [--depth 14]

REVIEW.jsonl is `guoxiang review GAMES.pgn --json`. Stockfish evaluates every position of every game at a fixed
depth with UCI_ShowWDL; its expected score for the side to move is (W + D/2) / 1000. A move's loss by Stockfish is
the mover's expected score before it minus after it (percentage points). Prints, as docs/review.md reports them:
of the moves Stockfish says lose >= 30 points, the share we class mistake, blunder or missed win; of our blunders
(and missed wins), the share that lose >= 15 points by Stockfish; and the class table.
"""

import argparse
import json
import sys

import chess
import chess.engine
import chess.pgn


def expected(info, turn):
    wdl = info.get("wdl")
    if wdl is not None:
        w, d, l = wdl.pov(turn)
        return (w + d / 2) / 10.0
    score = info["score"].pov(turn)
    if score.is_mate():
        return 100.0 if score.mate() > 0 else 0.0
    return 50.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pgn")
    ap.add_argument("review")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--depth", type=int, default=14)
    a = ap.parse_args()
    reviews = [json.loads(line) for line in open(a.review)]
    engine = chess.engine.SimpleEngine.popen_uci(a.stockfish)
    engine.configure({"Threads": 1, "Hash": 64, "UCI_ShowWDL": True})
    big, big_marked, ours, ours_confirmed = 0, 0, 0, 0
    table = {}
    with open(a.pgn) as f:
        for r in reviews:
            game = chess.pgn.read_game(f)
            while game is not None and game.errors:
                game = chess.pgn.read_game(f)
            if game is None:
                break
            board = game.board()
            exp = []
            boards = [board.copy()]
            for m in game.mainline_moves():
                board.push(m)
                boards.append(board.copy())
            for b in boards:
                if b.is_checkmate():
                    exp.append(0.0)
                elif b.is_game_over():
                    exp.append(50.0)
                else:
                    exp.append(expected(engine.analyse(b, chess.engine.Limit(depth=a.depth)), b.turn))
            for i, mv in enumerate(r["moves"]):
                if i + 1 >= len(exp):
                    break
                loss = exp[i] - (100.0 - exp[i + 1])
                cls = mv["class"]
                table.setdefault(cls, []).append(loss)
                if boards[i].legal_moves.count() <= 1:
                    continue
                if loss >= 30:
                    big += 1
                    big_marked += cls in ("mistake", "blunder", "missed_win")
                if cls in ("blunder", "missed_win"):
                    ours += 1
                    ours_confirmed += loss >= 15
            print(f"game {r['game']}: {len(r['moves'])} moves", file=sys.stderr)
    engine.quit()
    print(f"Stockfish's losses >= 30 points: {big}; marked mistake/blunder/missed win by us: {big_marked}"
          f" ({100.0 * big_marked / max(big, 1):.1f}%)")
    print(f"our blunders and missed wins: {ours}; losing >= 15 points by Stockfish: {ours_confirmed}"
          f" ({100.0 * ours_confirmed / max(ours, 1):.1f}%)")
    print("| our class | moves | Stockfish's mean loss (points) |")
    print("|---|---:|---:|")
    for cls in ["only_move", "best", "excellent", "good", "inaccuracy", "mistake", "blunder", "missed_win"]:
        v = table.get(cls, [])
        if v:
            print(f"| {cls} | {len(v)} | {sum(v) / len(v):.1f} |")


if __name__ == "__main__":
    main()
