#!/usr/bin/env python3
"""Replays the review's marks for people (docs/review.md, "Marks for people") from a `review_dump` with per-judge
verdicts, for other constants, and scores each against Stockfish as tools/review_agreement.py does. Dev-only.

    python3 tools/review_marks.py GAMES.pgn DUMP.jsonl [DUMP2.jsonl …] --cache SF.json [--check] [--grid]

DUMP.jsonl: `cargo run --release -p guoxiang-review --example review_dump -- GAMES.pgn` (it prints `verdicts`: each
judge's loss, class and the facts the marks use). SF.json: the Stockfish cache of tools/review_agreement.py (every
position must be in it: run review_agreement.py GAMES.pgn --cache SF.json first).

--check  replays with the review's own constants and counts the moves whose class differs from the dump's (0 when
         the replay is the review's rule).
--grid   prints recall, precision and the share of moves marked for a grid of the constants: PEOPLE_MIN (0 = no
         floor), the other judge's loss a material blunder needs (UPGRADE; 999 = no material blunders), and
         FLOOR_BELOW: the floor applies only to moves whose speaking judge's loss is under it (999 = always; the
         review's rule is FLOOR_BELOW = 10). Blunders and missed wins that give nothing away need PEOPLE_BLUNDER.
"""

import argparse
import json
import sys

import chess
import chess.pgn

MISTAKES = ("mistake", "blunder", "missed_win")

# The review's constants (crates/review/src/chances.rs).
CONFIRM_MIN = 25.0
PEOPLE_MIN = 4.0
FLOOR_BELOW = 10.0
PEOPLE_BLUNDER = 10.0
BLUNDER_MATERIAL = 3
NOT_LOST = 25.0
MISTAKE_MIN = 8.0


def for_people(cls, f, other_loss, other_people, people_min, upgrade, floor_below, people_blunder=PEOPLE_BLUNDER):
    gives = f["material_lost"] >= BLUNDER_MATERIAL or f["allows_mate"]
    if (cls in ("inaccuracy", "mistake") and max(f["people_loss"], other_people) < people_min
            and f["loss"] < floor_below
            and f["material_lost"] < 1 and not f["allows_mate"]):
        return "good"
    if cls == "mistake" and gives and f["before"] >= NOT_LOST and other_loss >= upgrade:
        return "blunder"
    if cls in ("blunder", "missed_win") and not gives and min(f["people_loss"], other_people) < people_blunder:
        return "mistake"
    return cls


def combine(verdicts, people_min=PEOPLE_MIN, upgrade=CONFIRM_MIN, floor_below=FLOOR_BELOW):
    """The class of a move from its judges' verdicts, as crates/review/src/lib.rs `review_judged` combines them."""
    if len(verdicts) == 1:
        v = verdicts[0]
        return for_people(v["class"], v, v["loss"], v["people_loss"], people_min, upgrade, floor_below)
    first, other = verdicts
    first_errs, other_errs = first["class"] in MISTAKES, other["class"] in MISTAKES
    use_other = other_errs and (not first_errs or other["loss"] > first["loss"])
    spk, oth = (other, first) if use_other else (first, other)
    cls = spk["class"]
    if cls in ("blunder", "missed_win") and oth["loss"] < CONFIRM_MIN:
        cls = "mistake"
    return for_people(cls, spk, oth["loss"], oth["people_loss"], people_min, upgrade, floor_below)


def games(path):
    with open(path) as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                return
            board = game.board()
            boards = [board.copy()]
            for m in game.mainline_moves():
                board.push(m)
                boards.append(board.copy())
            yield boards


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pgn")
    ap.add_argument("dumps", nargs="+")
    ap.add_argument("--cache", required=True)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--grid", action="store_true")
    a = ap.parse_args()
    sf = json.load(open(a.cache))["positions"]
    reviews = [json.loads(line) for d in a.dumps for line in open(d)]

    def expected(b):
        if b.is_checkmate():
            return 0.0
        if b.is_game_over():
            return 50.0
        return sf[b.fen()][0]

    moves = []  # (Stockfish loss, verdicts, the dump's class)
    for gi, boards in enumerate(games(a.pgn)):
        if gi >= len(reviews):
            break
        r = reviews[gi]
        if "verdicts" not in r:
            sys.exit(f"{a.dumps}: game {gi + 1} has no verdicts (a review_dump from before they were printed)")
        for i, mv in enumerate(r["moves"]):
            if i + 1 >= len(boards) or boards[i].legal_moves.count() <= 1:
                continue
            loss = expected(boards[i]) - (100.0 - expected(boards[i + 1]))
            moves.append((loss, r["verdicts"][i], mv["class"]))
    print(f"{min(len(reviews), gi + 1)} games, {len(moves)} moves with a choice")

    def score(people_min, upgrade, floor_below):
        big = marked_big = ours = confirmed = marked = 0
        for loss, verdicts, _ in moves:
            cls = combine(verdicts, people_min, upgrade, floor_below)
            marked += cls in MISTAKES
            if loss >= 30:
                big += 1
                marked_big += cls in MISTAKES
            if cls in ("blunder", "missed_win"):
                ours += 1
                confirmed += loss >= 15
        return big, marked_big, ours, confirmed, marked

    if a.check:
        differ = sum(combine(v) != c for _, v, c in moves)
        print(f"--check: {differ} moves classed otherwise than in the dump")
    rows = [(PEOPLE_MIN, CONFIRM_MIN, FLOOR_BELOW)]
    if a.grid:
        rows = [(p, u, fb) for p in (0.0, 2.0, 3.0, 4.0, 5.0, 6.0) for u in (MISTAKE_MIN, CONFIRM_MIN, 999.0)
                for fb in (10.0, 15.0, 20.0, 999.0)]
    print("| PEOPLE_MIN | UPGRADE | FLOOR_BELOW | Stockfish >= 30 | recall | our blunders | precision | moves marked |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for p, u, fb in rows:
        big, mb, ours, conf, marked = score(p, u, fb)
        print(f"| {p:g} | {u:g} | {fb:g} | {big} | {100.0 * mb / max(big, 1):.1f}% ({mb}) | {ours} |"
              f" {100.0 * conf / max(ours, 1):.1f}% ({conf}) | {100.0 * marked / max(len(moves), 1):.1f}% |")


if __name__ == "__main__":
    main()
