#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Search speed of guoxiang against one peer UCI engine: nodes per second and time to depth.

For each position of a fixed list (eight from the engine's bench set, crates/engine/src/bench.rs, and four classic
test positions) and each depth D of a range, each engine searches `go depth D` from a cleared state (`ucinewgame`,
sent by python-chess because every search is given a new game key). The engines run strictly one at a time and
alternate position by position (guoxiang first on positions 1, 3, 5, ..., the peer first on 2, 4, 6, ...), so drift of a shared
machine hits both alike. Before measuring, each engine does one unmeasured warm-up search (first-touch of the hash
table, lazy initialisation).

Per search the engine's own last report is kept: `time` (ms) and `nodes`. Printed as a markdown table:

- total nodes and total time over all searches;
- nps (mean): the mean over positions of nodes / time of the deepest search (the largest, least timer-quantised
  one); nps (total): total nodes / total time, which weights the long searches;
- mean time to depth D (ms) over positions, for each D;
- the ratio guoxiang / peer of each (nps: above 1 means guoxiang is faster; time: below 1 means guoxiang is faster).

Time to depth compares different search trees (each engine prunes and extends differently, so "depth 10" is not the
same amount of work); it is indicative only. nps is the more comparable figure, and even that depends on how much
each engine spends per node (evaluation size, quiescence share).

Usage:
    python3 tools/speed.py [--engine target/release/guoxiang] [--peer /usr/games/glaurung]
                           [--min-depth 6] [--max-depth 10] [--hash 64] [--json out.json]
"""

import argparse
import json
import shutil
import statistics
import sys
import time

import chess
import chess.engine

# Eight bench positions (crates/engine/src/bench.rs POSITIONS indices 0, 1, 2, 3, 4, 11, 18, 21) ...
BENCH = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11",
    "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
    "rq3rk1/ppp2ppp/1bnpb3/3N2B1/3NP3/7P/PPPQ1PP1/2KR3R w - - 7 14",
    "r1bq1r1k/b1p1npp1/p2p3p/1p6/3PP3/1B2NN2/PP3PPP/R2Q1RK1 w - - 1 16",
    "6k1/6p1/6Pp/ppp5/3pn2P/1P3K2/1PP2P2/3N4 b - - 0 1",
    "8/6pk/1p6/8/PP3p1p/5P2/4KP1q/3Q4 w - - 0 1",
]
# ... and four classic test positions.
CLASSIC = [
    # perft position 4 (chessprogramming wiki)
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    # perft position 5
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    # Bratko-Kopec 1
    "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
    # Fine 70 (Lasker-Reichhelm), a table-heavy pawn ending
    "8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1",
]
POSITIONS = BENCH + CLASSIC


def open_engine(path, hash_mb):
    cmd = [path, "uci"] if path.endswith("guoxiang") else [path]
    eng = chess.engine.SimpleEngine.popen_uci(cmd)
    opts = {}
    for name, value in (("Threads", 1), ("Hash", hash_mb), ("OwnBook", False)):
        if name in eng.options:
            opts[name] = value
    eng.configure(opts)
    return eng


def search(eng, fen, depth):
    board = chess.Board(fen)
    wall = time.perf_counter()
    info = eng.analyse(board, chess.engine.Limit(depth=depth), game=object(), info=chess.engine.INFO_BASIC)
    wall = time.perf_counter() - wall
    t = info.get("time")
    ms = t * 1000.0 if t is not None else wall * 1000.0
    return {"depth": depth, "reached": info.get("depth"), "nodes": info.get("nodes", 0), "ms": ms,
            "wall_ms": wall * 1000.0}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", default="target/release/guoxiang")
    ap.add_argument("--peer", default=shutil.which("glaurung") or "/usr/games/glaurung")
    ap.add_argument("--min-depth", type=int, default=6)
    ap.add_argument("--max-depth", type=int, default=10)
    ap.add_argument("--hash", type=int, default=64)
    ap.add_argument("--json", help="write the raw per-search records here")
    args = ap.parse_args()
    depths = list(range(args.min_depth, args.max_depth + 1))

    engines = {"guoxiang": open_engine(args.engine, args.hash), "peer": open_engine(args.peer, args.hash)}
    names = {k: "%s" % e.id.get("name", k) for k, e in engines.items()}
    # warm-up, unmeasured
    for eng in engines.values():
        eng.analyse(chess.Board(), chess.engine.Limit(depth=args.min_depth), game=object())

    records = {k: [] for k in engines}
    start = time.perf_counter()
    for i, fen in enumerate(POSITIONS):
        order = ["guoxiang", "peer"] if i % 2 == 0 else ["peer", "guoxiang"]
        for key in order:
            rows = [search(engines[key], fen, d) for d in depths]
            records[key].append({"fen": fen, "searches": rows})
            last = rows[-1]
            print("pos %2d %-9s d%d: %9d nodes %8.0f ms" % (i + 1, key, last["depth"], last["nodes"], last["ms"]),
                  file=sys.stderr, flush=True)
    elapsed = time.perf_counter() - start
    for eng in engines.values():
        eng.quit()

    def summary(key):
        recs = records[key]
        total_nodes = sum(s["nodes"] for r in recs for s in r["searches"])
        total_ms = sum(s["ms"] for r in recs for s in r["searches"])
        nps = statistics.mean(r["searches"][-1]["nodes"] / max(r["searches"][-1]["ms"], 1.0) * 1000.0 for r in recs)
        ttd = [statistics.mean(r["searches"][j]["ms"] for r in recs) for j in range(len(depths))]
        return total_nodes, total_ms, nps, ttd

    g = summary("guoxiang")
    p = summary("peer")
    head = "| engine | total nodes | total time (s) | nps (mean) | nps (total) | " + " | ".join(
        "ttd d%d (ms)" % d for d in depths) + " |"
    print(head)
    print("|---|" + "---:|" * (4 + len(depths)))
    for key, s in (("guoxiang", g), ("peer", p)):
        print("| %s | %s | %.2f | %s | %s | %s |" % (
            names[key], format(s[0], ","), s[1] / 1000.0, format(round(s[2]), ","),
            format(round(s[0] / s[1] * 1000.0), ","), " | ".join("%.1f" % x for x in s[3])))
    ratios = ["**%.2f×**" % (a / b) if b > 0 else "–" for a, b in zip(g[3], p[3])]
    print("| ratio guoxiang / peer | %.2f× | %.2f× | **%.2f×** | **%.2f×** | %s |" % (
        g[0] / p[0], g[1] / p[1], g[2] / p[2], (g[0] / g[1]) / (p[0] / p[1]), " | ".join(ratios)))
    print("\n%d positions, depths %d..%d, %.0f s wall" % (len(POSITIONS), depths[0], depths[-1], elapsed))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"names": names, "depths": depths, "records": records}, f, indent=1)


if __name__ == "__main__":
    main()
