#!/usr/bin/env python3
"""Scores one player over match PGN files: W-D-L, Elo with 95 % error bars (trinomial and pentanomial) and the
GSPRT log-likelihood ratio — the statistics of tools/match.py, for games of several runs pooled.

Usage: python3 tools/pgn_score.py PLAYER FILE.pgn[.gz] … [--sprt ELO0 ELO1]

Games pair up as tools/match.py plays them: the two games of one opening (the same FEN tag, in the same file), one
with each colour, in the order they appear. Unfinished games are left out. Example (docs/engine.md, "NNUE"):

    python3 tools/pgn_score.py nnue docs/matches/2026-12-05/nnue-vs-hce-sprt.pgn.gz \\
        docs/matches/2026-12-05/nnue-vs-hce-sprt-cont.pgn.gz
"""

import collections
import gzip
import os
import sys

import chess.pgn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import match  # noqa: E402  (its statistics)

POINTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def headers(path):
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        while True:
            h = chess.pgn.read_headers(f)
            if h is None:
                return
            yield h


def main():
    args = sys.argv[1:]
    elo0, elo1 = 0.0, 10.0
    if "--sprt" in args:
        i = args.index("--sprt")
        elo0, elo1 = float(args[i + 1]), float(args[i + 2])
        del args[i:i + 3]
    if len(args) < 2:
        print(__doc__)
        return 2
    player, files = args[0], args[1:]
    w = d = l = 0
    pairs = collections.defaultdict(list)
    for path in files:
        for h in headers(path):
            if h.get("Result") not in POINTS or player not in (h.get("White"), h.get("Black")):
                continue
            s = POINTS[h["Result"]] if h.get("White") == player else 1 - POINTS[h["Result"]]
            w, d, l = w + (s == 1), d + (s == 0.5), l + (s == 0)
            pairs[(path, h.get("FEN", ""))].append(s)
    n = w + d + l
    if n == 0:
        print(f"no finished game of {player}")
        return 1
    _, s, var = match.trinomial(w, d, l)
    elo, err = match.elo_with_error(n, s, var)
    penta = [0] * 5
    for scores in pairs.values():
        for a, b in zip(scores[0::2], scores[1::2]):
            penta[int(round((a + b) * 2))] += 1
    print(f"{player}: {n} games, {w} W – {d} D – {l} L, {100 * s:.1f} %, Elo {elo:+.1f} ± {err:.1f}, "
          f"LOS {100 * match.los(w, l):.1f} %")
    if sum(penta):
        pn, ps, pv = match.pentanomial(penta)
        pe, perr = match.elo_with_error(pn, ps, pv)
        lo, hi = match.sprt_bounds(0.05, 0.05)
        llr = match.gsprt_llr_exact(penta, elo0, elo1)
        print(f"pentanomial {penta} ({sum(penta)} pairs): Elo {pe:+.1f} ± {perr:.1f}; "
              f"GSPRT({elo0:g}, {elo1:g}) LLR {llr:.2f} (bounds {lo:.2f}, {hi:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
