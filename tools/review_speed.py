#!/usr/bin/env python3
"""How long `guoxiang review` takes for a game against Stockfish searching the same positions to a fixed depth, side
by side in one run (docs/review.md, "Speed"). Dev-only: Stockfish is a benchmark peer, never shipped.

    python3 tools/review_speed.py GUOXIANG GAMES.pgn [--games 1,5,9] [--stockfish PATH] [--depth 14] [--min-plies 60]
                                  [--max-plies 90] [-- REVIEW ARGS…]

For each chosen game (by default every game of the file with MIN–MAX plies): Stockfish (one thread, 64 MiB hash,
`ucinewgame` first) searches every position of the game, the start and after each move, in game order with its move
history, to DEPTH; then `GUOXIANG review` reviews the game alone (a one-game PGN file). Prints per game the plies,
Stockfish's CPU seconds, the review's CPU seconds (user + system, all its threads) and wall seconds, and the ratios
review CPU / Stockfish CPU and review wall / Stockfish CPU; the last line sums them over the games. CPU time is read
from the kernel (/proc for Stockfish, wait4 for the review), so another process on the machine changes it little.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

import chess
import chess.engine
import chess.pgn


def cpu_seconds(pid):
    """User + system CPU seconds of a running process, from /proc."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / tick


def stockfish_cpu(path, game, depth):
    engine = chess.engine.SimpleEngine.popen_uci(path)
    try:
        engine.configure({"Threads": 1, "Hash": 64})
        pid = engine.transport.get_pid()
        board = game.board()
        boards = [board.copy()]
        for m in game.mainline_moves():
            board.push(m)
            boards.append(board.copy())
        start = cpu_seconds(pid)
        for b in boards:
            if not b.is_game_over():
                engine.analyse(b, chess.engine.Limit(depth=depth), game=game)
        return cpu_seconds(pid) - start
    finally:
        engine.quit()


def review_times(guoxiang, game, extra):
    with tempfile.NamedTemporaryFile("w", suffix=".pgn", delete=False) as f:
        print(game, file=f)
        name = f.name
    try:
        t0 = time.monotonic()
        proc = subprocess.Popen([guoxiang, "review", name, "--json", *extra], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.monotonic() - t0
        if status != 0:
            sys.exit(f"{guoxiang} review failed on a game (status {status})")
        return usage.ru_utime + usage.ru_stime, wall
    finally:
        os.unlink(name)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("guoxiang")
    ap.add_argument("pgn")
    ap.add_argument("--games", help="game numbers in the file, 1-based, comma-separated")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--depth", type=int, default=14)
    ap.add_argument("--min-plies", type=int, default=60)
    ap.add_argument("--max-plies", type=int, default=90)
    args, extra = ap.parse_known_args()
    extra = [a for a in extra if a != "--"]
    wanted = {int(x) for x in args.games.split(",")} if args.games else None
    chosen = []
    with open(args.pgn) as f:
        n = 0
        while (g := chess.pgn.read_game(f)) is not None:
            n += 1
            plies = sum(1 for _ in g.mainline_moves())
            if g.errors:
                continue
            if (wanted is not None and n in wanted) or (
                    wanted is None and args.min_plies <= plies <= args.max_plies):
                chosen.append((n, plies, g))
    if not chosen:
        sys.exit("no game of the file matches")
    print("| game | plies | Stockfish CPU s | review CPU s | review wall s | CPU ratio | wall ratio |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    tot = [0.0, 0.0, 0.0]
    for n, plies, g in chosen:
        sf = stockfish_cpu(args.stockfish, g, args.depth)
        cpu, wall = review_times(args.guoxiang, g, extra)
        tot = [tot[0] + sf, tot[1] + cpu, tot[2] + wall]
        print(f"| {n} | {plies} | {sf:.1f} | {cpu:.1f} | {wall:.1f} | {cpu / sf:.2f} | {wall / sf:.2f} |", flush=True)
    print(f"| all {len(chosen)} | | {tot[0]:.1f} | {tot[1]:.1f} | {tot[2]:.1f} | **{tot[1] / tot[0]:.2f}** | "
          f"**{tot[2] / tot[0]:.2f}** |")


if __name__ == "__main__":
    main()
