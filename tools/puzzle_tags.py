#!/usr/bin/env python3
"""Precision and recall of our motif tagger against lichess's own Themes, per lichess theme (docs/puzzles/tagger.md).

    tools/puzzle_tags.py FILE.csv                 # runs `guoxiang puzzles tag FILE.csv --json` itself
    tools/puzzle_tags.py FILE.csv --tags OUT.jsonl  # reads output saved earlier
    tools/puzzle_tags.py FILE.csv --examples fork   # also lists puzzles where we and lichess disagree on a theme

Prints a Markdown table on standard output. Standard library only.
"""

import argparse
import csv
import json
import os
import subprocess
import sys

MEASURED = [
    "fork", "pin", "skewer", "discoveredAttack", "discoveredCheck", "doubleCheck", "sacrifice", "deflection",
    "attraction", "interference", "clearance", "intermezzo", "trappedPiece", "capturingDefender", "xRayAttack",
    "hangingPiece", "backRankMate", "smotheredMate", "mate", "mateIn1", "mateIn2", "mateIn3", "mateIn4", "mateIn5",
    "promotion", "underPromotion", "enPassant", "castling", "zugzwang", "quietMove", "defensiveMove",
]
TARGETS = {"fork", "pin", "skewer", "discoveredAttack", "doubleCheck", "backRankMate", "smotheredMate", "mateIn1",
           "mateIn2", "promotion", "enPassant"}


def lichess_themes(path):
    out = {}
    with open(path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            out[row["PuzzleId"]] = (set(row["Themes"].split()), row["FEN"], row["Moves"])
    return out


def our_tags(csv_path, tags_path, binary):
    if tags_path:
        lines = open(tags_path, encoding="utf-8").read().splitlines()
    else:
        run = subprocess.run([binary, "puzzles", "tag", csv_path, "--json"], capture_output=True, text=True)
        if run.returncode not in (0, 1):
            sys.exit(f"{binary} puzzles tag failed ({run.returncode}): {run.stderr.strip()}")
        lines = run.stdout.splitlines()
    out = {}
    for line in lines:
        v = json.loads(line)
        if "error" not in v:
            out[v["id"]] = set(v["lichess_themes"])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv")
    ap.add_argument("--tags", help="JSON lines of `guoxiang puzzles tag --json` (else it is run)")
    ap.add_argument("--bin", default=os.environ.get("GUOXIANG_BIN", "target/release/guoxiang"))
    ap.add_argument("--examples", help="a lichess theme: list disagreements on it")
    ap.add_argument("-n", type=int, default=10, help="how many examples of each kind")
    a = ap.parse_args()

    theirs = lichess_themes(a.csv)
    ours = our_tags(a.csv, a.tags, a.bin)
    ids = [i for i in theirs if i in ours]

    print(f"{len(ids)} puzzles compared.\n")
    print("| lichess theme | lichess | ours | both | precision | recall | target |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for t in MEASURED:
        lic = sum(1 for i in ids if t in theirs[i][0])
        our = sum(1 for i in ids if t in ours[i])
        both = sum(1 for i in ids if t in theirs[i][0] and t in ours[i])
        p = f"{both / our:.3f}" if our else "–"
        r = f"{both / lic:.3f}" if lic else "–"
        target = ""
        if t in TARGETS:
            ok = our and lic and both / our >= 0.85 and both / lic >= 0.75
            target = "met" if ok else "**missed**"
        print(f"| {t} | {lic} | {our} | {both} | {p} | {r} | {target} |")

    if a.examples:
        t = a.examples
        fp = [i for i in ids if t in ours[i] and t not in theirs[i][0]]
        fn = [i for i in ids if t not in ours[i] and t in theirs[i][0]]
        print(f"\nOurs only ({len(fp)}):")
        for i in fp[: a.n]:
            print(f"  {i} {theirs[i][1]} | {theirs[i][2]} | lichess: {' '.join(sorted(theirs[i][0]))}")
        print(f"Lichess only ({len(fn)}):")
        for i in fn[: a.n]:
            print(f"  {i} {theirs[i][1]} | {theirs[i][2]} | ours: {' '.join(sorted(ours[i]))}")


if __name__ == "__main__":
    main()
