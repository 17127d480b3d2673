#!/usr/bin/env python3
"""Measuring the puzzle generator against an independent engine (docs/puzzles/generator.md). Dev-only.

  head    IN.pgn OUT.pgn N          the first N games of a PGN file (a game starts at a tag line after movetext)
  confirm PUZZLES.csv [--depth D] [--engine PATH] [--out JSONL]
          For every puzzle: Stockfish (default /usr/games/stockfish, Debian's 15.1), 1 thread, 64 MB hash,
          multipv 2 to depth D (default 18), in the position after the setup move. The puzzle is *confirmed*
          when Stockfish's best move is our first solver move and it is best by a clear margin:
            - there is no second legal move, or
            - the best line mates and the second does not mate, or mates at least one move slower, or
            - neither mates and the winning chances differ by at least 0.3, with
              wc(cp) = 2 / (1 + exp(-0.00368208 cp)) - 1 (lichess's curve for Stockfish's centipawns), or
            - the best does not mate and the second is mated (a loss against anything else).
          Prints the confirmed share, and one JSON line per puzzle with --out.

Needs python-chess (`import chess`).
"""
import argparse
import csv
import json
import math
import sys

import chess
import chess.engine


def head(args):
    games = 0
    in_moves = False
    with open(args.input, encoding="utf-8", errors="replace") as f, open(args.output, "w") as out:
        for line in f:
            is_tag = line.startswith("[")
            if is_tag and in_moves:
                games += 1
                in_moves = False
                if games >= args.n:
                    break
            if not is_tag and line.strip():
                in_moves = True
            out.write(line)
    print(f"{min(games + (1 if in_moves else 0), args.n)} games written", file=sys.stderr)


def wc(cp):
    return 2 / (1 + math.exp(-0.00368208 * cp)) - 1


def clear_margin(best, second):
    """best, second: chess.engine.PovScore for the solver (second may be None)."""
    if second is None:
        return True
    b, s = best, second
    if b.is_mate() and b.mate() > 0:
        return not (s.is_mate() and s.mate() > 0) or s.mate() > b.mate()
    if s.is_mate():
        return s.mate() < 0
    if b.is_mate():
        return False
    return wc(b.score()) - wc(s.score()) >= 0.3


def confirm(args):
    eng = chess.engine.SimpleEngine.popen_uci(args.engine)
    eng.configure({"Threads": 1, "Hash": 64})
    n = ok = 0
    out = open(args.out, "w") if args.out else None
    with open(args.input, newline="") as f:
        for row in csv.DictReader(f):
            board = chess.Board(row["FEN"])
            moves = row["Moves"].split()
            board.push_uci(moves[0])
            solver = board.turn
            info = eng.analyse(board, chess.engine.Limit(depth=args.depth), multipv=2)
            best = info[0]
            second = info[1] if len(info) > 1 else None
            best_move = best["pv"][0].uci()
            b = best["score"].pov(solver)
            s = second["score"].pov(solver) if second else None
            yes = best_move == moves[1] and clear_margin(b, s)
            n += 1
            ok += yes
            if out:
                out.write(json.dumps({"id": row["PuzzleId"], "confirmed": yes, "ours": moves[1],
                                      "stockfish": best_move, "best": str(b),
                                      "second": str(s) if s else None}) + "\n")
    eng.quit()
    print(f"{ok} of {n} puzzles confirmed by Stockfish at depth {args.depth} "
          f"({100 * ok / max(n, 1):.1f}%)")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    h = sub.add_parser("head")
    h.add_argument("input")
    h.add_argument("output")
    h.add_argument("n", type=int)
    c = sub.add_parser("confirm")
    c.add_argument("input")
    c.add_argument("--depth", type=int, default=18)
    c.add_argument("--engine", default="/usr/games/stockfish")
    c.add_argument("--out")
    a = p.parse_args()
    {"head": head, "confirm": confirm}[a.cmd](a)


if __name__ == "__main__":
    main()
