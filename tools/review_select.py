#!/usr/bin/env python3
"""Picks games from a lichess PGN file for measuring the review (docs/review.md, "Agreement").

    python3 tools/review_select.py IN.pgn OUT.pgn N [--min-base SECONDS] [--min-plies P]

Writes the first N games of IN.pgn that replay without error, have at least P plies (default 10) and, with
--min-base, a TimeControl whose base time is at least SECONDS (e.g. 180 leaves bullet out). Games are copied
as python-chess writes them (tags and moves; no comments).
"""

import argparse

import chess.pgn


def base_time(game):
    tc = game.headers.get("TimeControl", "-")
    try:
        return int(tc.split("+")[0])
    except ValueError:
        return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("inp")
    ap.add_argument("out")
    ap.add_argument("n", type=int)
    ap.add_argument("--min-base", type=int, default=0)
    ap.add_argument("--min-plies", type=int, default=10)
    a = ap.parse_args()
    kept = 0
    with open(a.inp) as f, open(a.out, "w") as out:
        while kept < a.n:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            if game.errors or base_time(game) < a.min_base:
                continue
            if sum(1 for _ in game.mainline_moves()) < a.min_plies:
                continue
            print(game.accept(chess.pgn.StringExporter(headers=True, variations=False, comments=False)), file=out)
            print(file=out)
            kept += 1
    print(f"{kept} games written to {a.out}")


if __name__ == "__main__":
    main()
