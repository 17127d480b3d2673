#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# guoxiang (国象) — ratings from match PGNs: a maximum-likelihood fit with anchors (for the ladder and the levels).
"""Fit logistic Elo ratings to the games in PGN files, with some players' ratings fixed (anchors).

    python3 tools/ratings.py --anchor glaurung=2790 --anchor gnuchess=2700 games/*.pgn

Every game between two players counts as a result s (1, ½, 0) for White; the model is
P(white scores) = 1 / (1 + 10^((R_black − R_white) / 400)) — no colour advantage, as the openings are played
with colours reversed. The ratings that are not anchored are the ones that maximise the likelihood of all the
results (Newton's method). Like BayesElo, each pair of players that met gets PRIOR virtual draws (default 1), so
a 100 % score still gives a finite rating. 95 % error bars are 1.96 standard errors from the inverse of the
observed information matrix (anchors held fixed). Players not connected to an anchor by games are reported as
such.

Output: a Markdown table of every player with games, score, rating and error bar, and a table of pairings.
"""

from __future__ import annotations

import argparse
import gzip
import math
import re
import sys
from collections import defaultdict
from typing import Dict, List, Tuple

TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')


def read_games(paths: List[str]) -> List[Tuple[str, str, float]]:
    games = []
    for path in paths:
        tags: Dict[str, str] = {}
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8") as f:
            for lineno, line in enumerate(f, 1):
                m = TAG.match(line.strip())
                if m:
                    tags[m.group(1)] = m.group(2)
                    continue
                if line.strip() == "" and "Result" in tags and "White" in tags and "Black" in tags:
                    r = tags["Result"]
                    s = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(r)
                    if s is None and r != "*":
                        sys.exit(f"{path}:{lineno}: unknown result {r!r}")
                    if s is not None:
                        games.append((tags["White"], tags["Black"], s))
                    tags = {}
        if "Result" in tags and "White" in tags and "Black" in tags:
            s = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(tags["Result"])
            if s is not None:
                games.append((tags["White"], tags["Black"], s))
    return games


def expected(d: float) -> float:
    return 1.0 / (1.0 + 10 ** (-d / 400.0))


def solve(a: List[List[float]], b: List[float]) -> List[float]:
    """Gaussian elimination with partial pivoting (small systems)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        if abs(m[p][c]) < 1e-12:
            raise ZeroDivisionError("singular")
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    return [m[i][n] / m[i][i] for i in range(n)]


def invert(a: List[List[float]]) -> List[List[float]]:
    n = len(a)
    cols = [solve(a, [1.0 if i == j else 0.0 for i in range(n)]) for j in range(n)]
    return [[cols[j][i] for j in range(n)] for i in range(n)]


def fit(games, anchors: Dict[str, float], prior: float):
    # Pair statistics: n games and points of the first player (names sorted).
    pairs: Dict[Tuple[str, str], List[float]] = defaultdict(lambda: [0.0, 0.0])
    for w, b, s in games:
        if w == b:
            continue
        key = (w, b) if w < b else (b, w)
        pairs[key][0] += 1
        pairs[key][1] += s if w < b else 1 - s
    for key in pairs:  # virtual draws
        pairs[key][0] += prior
        pairs[key][1] += prior / 2
    players = sorted({p for k in pairs for p in k})
    # Players connected to an anchor.
    adj = defaultdict(set)
    for a, b in pairs:
        adj[a].add(b)
        adj[b].add(a)
    seen = set(p for p in players if p in anchors)
    stack = list(seen)
    while stack:
        p = stack.pop()
        for q in adj[p]:
            if q not in seen:
                seen.add(q)
                stack.append(q)
    free = [p for p in players if p in seen and p not in anchors]
    idx = {p: i for i, p in enumerate(free)}
    r = {p: anchors.get(p, 0.0) for p in players}
    mean_anchor = sum(anchors.values()) / max(len(anchors), 1)
    for p in free:
        r[p] = mean_anchor
    c = math.log(10) / 400.0
    cov = None
    for _ in range(100):
        g = [0.0] * len(free)
        h = [[0.0] * len(free) for _ in free]
        for (a, b), (n, pts) in pairs.items():
            if a not in seen:
                continue
            e = expected(r[a] - r[b])
            grad = c * (pts - n * e)  # d logL / d r_a
            info = c * c * n * e * (1 - e)
            if a in idx:
                g[idx[a]] += grad
                h[idx[a]][idx[a]] += info
            if b in idx:
                g[idx[b]] -= grad
                h[idx[b]][idx[b]] += info
            if a in idx and b in idx:
                h[idx[a]][idx[b]] -= info
                h[idx[b]][idx[a]] -= info
        if not free:
            break
        step = solve(h, g)
        for p in free:
            r[p] += max(-400.0, min(400.0, step[idx[p]]))
        if max(abs(x) for x in step) < 1e-6:
            cov = invert(h)
            break
    if free and cov is None:
        cov = invert(h)
    err = {p: 1.96 * math.sqrt(max(cov[idx[p]][idx[p]], 0.0)) if cov else 0.0 for p in free}
    return players, seen, r, err


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pgn", nargs="+", help="PGN files, plain or .gz (e.g. written by tools/match.py --pgn)")
    ap.add_argument("--anchor", action="append", default=[], metavar="NAME=ELO", help="a fixed rating (repeat)")
    ap.add_argument("--prior", type=float, default=1.0, help="virtual draws per pair of players (default 1)")
    args = ap.parse_args()
    anchors = {}
    for a in args.anchor:
        name, _, elo = a.partition("=")
        try:
            anchors[name] = float(elo)
        except ValueError:
            sys.exit(f"--anchor {a!r}: expected NAME=ELO")
    games = read_games(args.pgn)
    if not games:
        sys.exit("no finished games in the PGN files")
    players, seen, r, err = fit(games, anchors, args.prior)
    stats = defaultdict(lambda: [0, 0.0])
    pair_stats = defaultdict(lambda: [0, 0, 0, 0])  # games, wins, draws, losses of the first name
    for w, b, s in games:
        stats[w][0] += 1
        stats[w][1] += s
        stats[b][0] += 1
        stats[b][1] += 1 - s
        key = (w, b) if w < b else (b, w)
        s1 = s if w < b else 1 - s
        ps = pair_stats[key]
        ps[0] += 1
        ps[1 + (0 if s1 == 1 else 1 if s1 == 0.5 else 2)] += 1
    print(f"{len(games)} games, {len(players)} players; anchors: "
          + ", ".join(f"{k} = {v:.0f}" for k, v in sorted(anchors.items())) + f"; {args.prior:g} virtual draws per pair")
    print()
    print("| player | games | score | Elo | ± 95 % |")
    print("|---|---|---|---|---|")
    for p in sorted(players, key=lambda p: -r[p] if p in seen else 1e9):
        n, pts = stats[p]
        if p not in seen:
            print(f"| {p} | {n} | {100 * pts / n:.1f} % | not connected to an anchor | |")
        elif p in anchors:
            print(f"| {p} | {n} | {100 * pts / n:.1f} % | {r[p]:.0f} (anchor) | |")
        else:
            print(f"| {p} | {n} | {100 * pts / n:.1f} % | {r[p]:.0f} | {err[p]:.0f} |")
    print()
    print("| pairing | games | +/=/− (first player) | score |")
    print("|---|---|---|---|")
    for (a, b), (n, w, d, l) in sorted(pair_stats.items()):
        print(f"| {a} – {b} | {n} | +{w} ={d} −{l} | {100 * (w + d / 2) / n:.1f} % |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
