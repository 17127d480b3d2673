#!/usr/bin/env python3
"""Measuring the puzzle checker (docs/puzzles/checker.md).

  sample  IN.csv OUT.csv --every K [--offset O]   every K-th data row (rows O, O+K, …; 0-based), header kept
  corrupt IN.csv OUT.csv                          one corrupted copy of every puzzle (the rule below)
  score   CHECK.jsonl [--expect sound|unsound]    share of rows judged sound / unsound, and mean ms per puzzle

The corruption, deterministic: for a puzzle with id I and solver moves k = 0..n-1 (Moves[1], Moves[3], …), let
h = the first 8 bytes of SHA-256(I) as a big-endian integer. Solver move k = h mod n is replaced by a legal move
of the same position that is not the solution move and does not give mate (so a mate is never swapped for another
mate); among those, sorted by UCI, the one at index (h // n) mod count. The line is cut after the replaced move.
Puzzles whose chosen position has no such move are left out (and counted on stderr). The corrupted puzzle keeps
its id with the suffix `x`.

Needs python-chess (`import chess`).
"""
import argparse
import csv
import hashlib
import json
import sys

import chess


def sample(args):
    with open(args.input, newline="") as f, open(args.output, "w", newline="") as out:
        r = csv.reader(f)
        w = csv.writer(out, lineterminator="\n")
        w.writerow(next(r))
        for i, row in enumerate(r):
            if i % args.every == args.offset:
                w.writerow(row)


def corrupt_row(pid, fen, moves):
    n = len(moves) // 2  # solver moves: indices 1, 3, …
    if n == 0:
        return None
    h = int.from_bytes(hashlib.sha256(pid.encode()).digest()[:8], "big")
    k = h % n
    idx = 2 * k + 1
    board = chess.Board(fen)
    for m in moves[:idx]:
        board.push_uci(m)
    solution = chess.Move.from_uci(moves[idx])
    choices = []
    for m in board.legal_moves:
        if m == solution:
            continue
        board.push(m)
        mate = board.is_checkmate()
        board.pop()
        if not mate:
            choices.append(m.uci())
    if not choices:
        return None
    choices.sort()
    pick = choices[(h // n) % len(choices)]
    return moves[:idx] + [pick]


def corrupt(args):
    skipped = 0
    with open(args.input, newline="") as f, open(args.output, "w", newline="") as out:
        r = csv.reader(f)
        w = csv.writer(out, lineterminator="\n")
        header = next(r)
        w.writerow(header)
        for row in r:
            new = corrupt_row(row[0], row[1], row[2].split())
            if new is None:
                skipped += 1
                continue
            row = list(row)
            row[0] = row[0] + "x"
            row[2] = " ".join(new)
            w.writerow(row)
    print(f"{skipped} puzzles without a corruptible move left out", file=sys.stderr)


def score(args):
    n = sound = broken = 0
    ms = 0.0
    reasons = {}
    with open(args.input) as f:
        for line in f:
            v = json.loads(line)
            if "error" in v:
                broken += 1
                continue
            n += 1
            sound += bool(v["sound"])
            ms += v.get("ms", 0.0)
            if not v["sound"]:
                key = v["reason"].split(": ", 1)[-1].split(" (")[0].split(" ", 1)[-1]
                reasons[key] = reasons.get(key, 0) + 1
    share = sound / n if n else 0.0
    want = share if args.expect == "sound" else 1 - share
    print(f"{n} puzzles, {sound} sound, {n - sound} unsound, {broken} broken rows; "
          f"{args.expect}: {100 * want:.1f}%; mean {ms / max(n, 1):.0f} ms per puzzle")
    for k, c in sorted(reasons.items(), key=lambda kv: -kv[1])[:8]:
        print(f"  {c:5d}  {k}")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("sample")
    s.add_argument("input")
    s.add_argument("output")
    s.add_argument("--every", type=int, required=True)
    s.add_argument("--offset", type=int, default=0)
    c = sub.add_parser("corrupt")
    c.add_argument("input")
    c.add_argument("output")
    sc = sub.add_parser("score")
    sc.add_argument("input")
    sc.add_argument("--expect", choices=["sound", "unsound"], default="sound")
    a = p.parse_args()
    {"sample": sample, "corrupt": corrupt, "score": score}[a.cmd](a)


if __name__ == "__main__":
    main()
