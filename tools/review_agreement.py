#!/usr/bin/env python3
"""How `guoxiang review` agrees with an independent engine (Stockfish, dev-only) on what a mistake is.

    python3 tools/review_agreement.py GAMES.pgn [REVIEW.jsonl] [--cache SF.json] [--stockfish PATH] [--depth 14]
                                      [--list] [--without-people]

REVIEW.jsonl is `guoxiang review GAMES.pgn --json` (or the `review_dump` example's output). Stockfish evaluates
every position of every game at a fixed depth with UCI_ShowWDL (one thread, 64 MiB hash); its expected score for
the side to move is (W + D/2) / 1000, in percentage points. A move's loss by Stockfish is the mover's expected
score before it minus after it. Prints, as docs/review.md reports them: of the moves Stockfish says lose >= 30
points, the share we class mistake, blunder or missed win; of our blunders (and missed wins), the share that lose
>= 15 points by Stockfish; and the class table. Moves from a position with one legal move are left out.

--cache SF.json keeps Stockfish's result per position (FEN) so that a second run, with another review of the
same games, does not search again; the file records the Stockfish version and depth and is refused for another
depth. Without REVIEW.jsonl the tool only fills the cache.

Also prints how the comments on our mistakes, blunders and missed wins read: how many carry an evaluation number
("+0.27", "0.52", "%") or start with the move itself, and how many are the positional fallback ("这步…").

--list also prints the disagreements, one line each: the Stockfish >= 30 moves we did not mark ("missed") and our
blunders Stockfish does not confirm ("unconfirmed"), with our class and loss, Stockfish's loss, and both engines'
score (side to move) and best move before the move.
"""

import argparse
import json
import os
import re
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


def score_text(info, turn):
    s = info["score"].pov(turn)
    return f"#{s.mate()}" if s.is_mate() else str(s.score())


class Stockfish:
    """Stockfish's expected score per position, searched on demand and remembered in the cache file."""

    def __init__(self, path, depth, cache_path):
        self.path, self.depth, self.cache_path = path, depth, cache_path
        self.engine = None
        self.positions = {}
        self.dirty = 0
        if cache_path and os.path.exists(cache_path):
            with open(cache_path) as f:
                data = json.load(f)
            if data.get("depth") != depth:
                sys.exit(f"{cache_path}: made at depth {data.get('depth')}, not {depth}")
            self.positions = data["positions"]
            self.version = data.get("stockfish")

    def expected(self, board):
        """The side to move's expected score at `board` (searched with its move history, as the game was)."""
        if board.is_checkmate():
            return 0.0
        if board.is_game_over():
            return 50.0
        key = board.fen()
        hit = self.positions.get(key)
        if hit is None:
            if self.engine is None:
                self.engine = chess.engine.SimpleEngine.popen_uci(self.path)
                self.engine.configure({"Threads": 1, "Hash": 64, "UCI_ShowWDL": True})
                self.version = self.engine.id.get("name")
            info = self.engine.analyse(board, chess.engine.Limit(depth=self.depth))
            best = info.get("pv", [None])[0]
            hit = [expected(info, board.turn), score_text(info, board.turn), best.uci() if best else None]
            self.positions[key] = hit
            self.dirty += 1
            if self.dirty >= 200:
                self.save()
        return hit[0]

    def save(self):
        if self.cache_path and self.dirty:
            tmp = self.cache_path + ".tmp"
            with open(tmp, "w") as f:
                json.dump({"stockfish": getattr(self, "version", None), "depth": self.depth,
                           "positions": self.positions}, f)
            os.replace(tmp, self.cache_path)
        self.dirty = 0

    def quit(self):
        self.save()
        if self.engine is not None:
            self.engine.quit()


def games(path):
    """The games of the file that python-chess replays, as lists of boards (the start and after every move)."""
    with open(path) as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                return
            if game.errors:
                continue
            board = game.board()
            boards = [board.copy()]
            for m in game.mainline_moves():
                board.push(m)
                boards.append(board.copy())
            yield boards


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pgn")
    ap.add_argument("review", nargs="?")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--depth", type=int, default=14)
    ap.add_argument("--cache")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--without-people", action="store_true",
                    help="score the review as it was before the marks for people (docs/review.md): a move classed "
                         "good that lost >= 8 points was a mistake, a blunder that lost < 30 points a mistake")
    a = ap.parse_args()
    sf = Stockfish(a.stockfish, a.depth, a.cache)
    reviews = [json.loads(line) for line in open(a.review)] if a.review else None
    big, big_marked, ours, ours_confirmed, counted = 0, 0, 0, 0, 0
    words = {"comments": 0, "numbers": 0, "move_first": 0, "positional": 0, "no_comment": 0}
    number = re.compile(r"\d\.\d|[+−-]\d|%|评估|evaluation")
    table = {}
    listing = []
    n_games = 0
    try:
        for gi, boards in enumerate(games(a.pgn)):
            if reviews is not None and gi >= len(reviews):
                break
            exp = [sf.expected(b) for b in boards]
            n_games += 1
            if reviews is None:
                print(f"game {gi + 1}: {len(boards) - 1} moves", file=sys.stderr)
                continue
            r = reviews[gi]
            for i, mv in enumerate(r["moves"]):
                if i + 1 >= len(exp):
                    break
                if boards[i].legal_moves.count() <= 1:
                    continue
                loss = exp[i] - (100.0 - exp[i + 1])
                cls = mv["class"]
                if a.without_people:
                    # The marks for people unmark a mistake (or inaccuracy) by its swing and make a mistake a blunder
                    # by material; the loss and the judge that speaks are the same, so the class before is known.
                    if cls == "good" and mv["loss"] >= 8:
                        cls = "mistake"
                    elif cls == "good" and mv["loss"] >= 4:
                        cls = "inaccuracy"
                    elif cls == "blunder" and mv["loss"] < 30:
                        cls = "mistake"
                table.setdefault(cls, []).append(loss)
                missed = loss >= 30 and cls not in ("mistake", "blunder", "missed_win")
                unconfirmed = cls in ("blunder", "missed_win") and loss < 15
                if a.list and (missed or unconfirmed):
                    hit = sf.positions.get(boards[i].fen(), [None, "?", "?"])
                    ours_before = r["positions"][i] if "positions" in r else {}
                    listing.append(
                        f"{'missed' if missed else 'unconfirmed'}: game {r.get('game', gi + 1)} ply {i + 1}"
                        f" {mv['san']}: ours {cls} {mv['loss']:.1f} (before {json.dumps(ours_before.get('eval'))}"
                        f" best {ours_before.get('best', mv.get('best'))}), Stockfish {loss:.1f}"
                        f" (before {hit[1]} best {hit[2]})")
                counted += 1
                if cls in ("mistake", "blunder", "missed_win"):
                    c = mv.get("comment")
                    if not c:
                        words["no_comment"] += 1
                    else:
                        words["comments"] += 1
                        texts = [c[k] for k in ("zh", "zh_latin", "en", "en_chinese") if k in c]
                        words["numbers"] += any(number.search(t) for t in texts)
                        words["move_first"] += any(t.startswith(mv["san"]) for t in texts)
                        words["positional"] += c["zh"].startswith("这步")
                if loss >= 30:
                    big += 1
                    big_marked += cls in ("mistake", "blunder", "missed_win")
                if cls in ("blunder", "missed_win"):
                    ours += 1
                    ours_confirmed += loss >= 15
    finally:
        sf.quit()
    if reviews is None:
        print(f"{n_games} games; {len(sf.positions)} positions in {a.cache}")
        return
    print(f"{n_games} games, {counted} moves with a choice; Stockfish {getattr(sf, 'version', '?')} depth {a.depth}")
    print(f"Stockfish's losses >= 30 points: {big}; marked mistake/blunder/missed win by us: {big_marked}"
          f" ({100.0 * big_marked / max(big, 1):.1f}%)")
    print(f"our blunders and missed wins: {ours}; losing >= 15 points by Stockfish: {ours_confirmed}"
          f" ({100.0 * ours_confirmed / max(ours, 1):.1f}%)")
    print(f"comments on our mistakes, blunders and missed wins: {words['comments']} (moves without one:"
          f" {words['no_comment']}); with an evaluation number: {words['numbers']}; starting with the move:"
          f" {words['move_first']}; the positional fallback (no material, mate or motif named): {words['positional']}")
    print("| our class | moves | Stockfish's mean loss (points) |")
    print("|---|---:|---:|")
    for cls in ["only_move", "best", "excellent", "good", "inaccuracy", "mistake", "blunder", "missed_win"]:
        v = table.get(cls, [])
        if v:
            print(f"| {cls} | {len(v)} | {sum(v) / len(v):.1f} |")
    for line in listing:
        print(line)


if __name__ == "__main__":
    main()
