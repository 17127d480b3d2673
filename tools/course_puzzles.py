#!/usr/bin/env python3
"""Pick positions for the course (学棋) from the shared lichess puzzles, by our tagger's motifs.

    python3 tools/course_puzzles.py --motif fork --max-rating 1400 --max-moves 2 --count 12 [--theme mateIn1]
            [--exclude-motif sacrifice] [--skip 0] [--bin target/release/guoxiang]

A lichess puzzle starts one move before the solver's turn: its first move is the opponent's. This prints, for each
pick, the position after that move (the learner to move, computed by `guoxiang explain --json`'s `fen_after`) and
the rest of the puzzle as a `lines` entry (learner move, reply, learner move, ...), ready to paste into a course step:

    # 0a1b2 rating 1210 motifs fork lichess fork middlegame short
    fen = "..."
    lines = [["e5c6", "d8d7", "c6a7"]]
    solutions = [["e5c6", "c6a7"]]

`--motif` is one of our tagger's motif ids (`guoxiang puzzles tag --json` names them: fork, pin, skewer, mate_in_1,
back_rank_mate, ...); `--theme` filters on lichess's own theme column as well (for named mates our tagger does not
name: anastasiaMate, arabianMate, bodenMate, ...). `--max-moves` counts the learner's moves. The picks are the most
popular puzzles under the rating cap (popularity, then fewer plays left out), so a beginner meets clear positions.
The data is read from ../shared/data/puzzles (not committed); the tagger's output is cached in /tmp.
"""
import argparse
import csv
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "shared", "data", "puzzles", "lichess_puzzles_half_a.csv")
CACHE = "/tmp/course_puzzles_tags.jsonl"


def tags(binary):
    if not os.path.exists(CACHE):
        with open(CACHE, "w") as out:
            subprocess.run([binary, "puzzles", "tag", "--json", DATA], stdout=out, check=True)
    result = {}
    with open(CACHE) as f:
        for line in f:
            row = json.loads(line)
            result[row["id"]] = set(row.get("motifs", []))
    return result


def fen_after(binary, fen, move):
    out = subprocess.run([binary, "explain", "--json", fen, move], capture_output=True, text=True)
    answer = json.loads(out.stdout)
    if not answer.get("legal"):
        raise ValueError(f"{move} is not legal in {fen}")
    return answer["fen_after"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--motif", action="append", default=[], help="our tagger's motif (all given must be present)")
    ap.add_argument("--exclude-motif", action="append", default=[])
    ap.add_argument("--theme", action="append", default=[], help="lichess theme (all given must be present)")
    ap.add_argument("--max-rating", type=int, default=1500)
    ap.add_argument("--min-rating", type=int, default=0)
    ap.add_argument("--max-moves", type=int, default=2)
    ap.add_argument("--count", type=int, default=10)
    ap.add_argument("--skip", type=int, default=0, help="leave out the first N picks (to get others)")
    ap.add_argument("--bin", default=os.path.join(HERE, "..", "target", "release", "guoxiang"))
    a = ap.parse_args()
    if not os.path.exists(DATA):
        sys.exit(f"no puzzle data at {DATA} (see ../shared/data/README)")
    motifs = tags(a.bin)
    rows = []
    with open(DATA, newline="") as f:
        for r in csv.DictReader(f):
            m = motifs.get(r["PuzzleId"], set())
            themes = set(r["Themes"].split())
            moves = r["Moves"].split()
            learner = (len(moves)) // 2
            if not all(x in m for x in a.motif) or any(x in m for x in a.exclude_motif):
                continue
            if not all(t in themes for t in a.theme):
                continue
            rating = int(r["Rating"])
            if not (a.min_rating <= rating <= a.max_rating) or learner > a.max_moves:
                continue
            rows.append((-int(r["Popularity"] or 0), -int(r["NbPlays"] or 0), r, m, themes))
    rows.sort(key=lambda x: (x[0], x[1]))
    for _, _, r, m, themes in rows[a.skip : a.skip + a.count]:
        moves = r["Moves"].split()
        fen = fen_after(a.bin, r["FEN"], moves[0])
        rest = moves[1:]
        learner_moves = rest[0::2]
        print(f"# {r['PuzzleId']} rating {r['Rating']} motifs {' '.join(sorted(m))} lichess {' '.join(sorted(themes))}")
        print(f'fen = "{fen}"')
        print("lines = [[" + ", ".join(f'"{x}"' for x in rest) + "]]")
        print("solutions = [[" + ", ".join(f'"{x}"' for x in learner_moves) + "]]")
        print()
    print(f"# {len(rows)} puzzles match; printed {min(a.count, max(0, len(rows) - a.skip))}", file=sys.stderr)


if __name__ == "__main__":
    main()
