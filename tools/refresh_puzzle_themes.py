#!/usr/bin/env python3
"""Rewrite the Themes column of a lichess-shaped puzzle CSV from our tagger (docs/puzzles/generator.md).

    tools/refresh_puzzle_themes.py puzzles/default.csv                 # runs `guoxiang puzzles tag FILE --json`
    tools/refresh_puzzle_themes.py puzzles/default.csv --tags OUT.jsonl  # reads output saved earlier
    tools/refresh_puzzle_themes.py puzzles/default.csv --check         # changes nothing; exit 1 if stale

Only the Themes column changes: every other byte of every line is kept (the line is cut at its commas, not
re-quoted), and the themes are written in the tagger's own order (`lichess_themes`: catalogue order), separated
by single spaces. Prints how many rows changed and, per theme, how many rows gained or lost it. Fails, changing
nothing, when the tagger reports an error for a row, misses a row or names a row that is not in the file.
Standard library only.
"""

import argparse
import collections
import csv
import json
import os
import subprocess
import sys

HEADER = "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags"
THEMES = 7  # index of the Themes column


def tagger_themes(csv_path, tags_path, binary):
    if tags_path:
        with open(tags_path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    else:
        run = subprocess.run([binary, "puzzles", "tag", csv_path, "--json"], capture_output=True, text=True)
        if run.returncode not in (0, 1):
            sys.exit(f"{binary} puzzles tag failed ({run.returncode}): {run.stderr.strip()}")
        lines = run.stdout.splitlines()
    out = {}
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        v = json.loads(line)
        if "error" in v:
            sys.exit(f"the tagger failed on {v.get('id', f'output line {n}')}: {v['error']}")
        if v["id"] in out:
            sys.exit(f"the tagger's output names {v['id']} twice (output line {n})")
        out[v["id"]] = list(v["lichess_themes"])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv")
    ap.add_argument("--tags", help="JSON lines of `guoxiang puzzles tag --json` (else it is run)")
    ap.add_argument("--bin", default=os.environ.get("GUOXIANG_BIN", "target/release/guoxiang"))
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 when some row's Themes is stale")
    args = ap.parse_args()

    tags = tagger_themes(args.csv, args.tags, args.bin)
    with open(args.csv, encoding="utf-8", newline="") as f:
        lines = [l + "\n" for l in f.read().split("\n")]
    lines[-1] = lines[-1][:-1]  # what follows the last newline ("" for a file that ends with one)
    if lines and lines[-1] == "":
        lines.pop()
    if not lines or lines[0].rstrip("\r\n") != HEADER:
        sys.exit(f"{args.csv}: line 1 is not the lichess header {HEADER!r}")

    out = [lines[0]]
    seen = set()
    changed = 0
    gained = collections.Counter()
    lost = collections.Counter()
    for n, line in enumerate(lines[1:], 2):
        body = line.rstrip("\r\n")
        if not body:
            sys.exit(f"{args.csv}:{n}: empty line")
        end = line[len(body):]
        parts = body.split(",", THEMES + 1)
        # The columns before Themes never hold a comma or a quote; check that cutting at commas read the row
        # as the csv module does, so nothing after Themes is misread either.
        if len(parts) != THEMES + 2 or next(csv.reader([body]))[: THEMES + 1] != parts[: THEMES + 1]:
            sys.exit(f"{args.csv}:{n}: cannot cut this row at its commas: {body[:80]!r}")
        pid = parts[0]
        if pid not in tags:
            sys.exit(f"{args.csv}:{n}: the tagger gave no themes for {pid}")
        seen.add(pid)
        old = parts[THEMES].split()
        new = tags[pid]
        if old != new:
            changed += 1
            gained.update(set(new) - set(old))
            lost.update(set(old) - set(new))
            parts[THEMES] = " ".join(new)
        out.append(",".join(parts) + end)
    extra = sorted(set(tags) - seen)
    if extra:
        sys.exit(f"the tagger named {len(extra)} puzzles that are not in {args.csv}, e.g. {extra[0]}")

    print(f"{changed} of {len(lines) - 1} rows {'would change' if args.check else 'changed'}")
    for t in sorted(set(gained) | set(lost)):
        print(f"  {t}: +{gained[t]} -{lost[t]}")
    if args.check:
        sys.exit(1 if changed else 0)
    if changed:
        with open(args.csv, "w", encoding="utf-8", newline="") as f:
            f.writelines(out)


if __name__ == "__main__":
    main()
