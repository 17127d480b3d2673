#!/usr/bin/env python3
"""Checks `guoxiang uci` with python-chess, an independent UCI client (`pip install chess`).

Usage: python3 tests/uci_python.py target/release/guoxiang

Analyses with depth, time, node and mate limits and with MultiPV, then plays a few short games of the engine
against itself (full strength and weak levels), checking that every move is legal. Exits non-zero on failure.
"""

import logging
import sys

import chess
import chess.engine

TIMEOUT = 60


def check(cond, what):
    if not cond:
        print("FAIL:", what)
        sys.exit(1)
    print("ok:", what)


class Warnings(logging.Handler):
    """Keeps python-chess's warnings (e.g. "Unexpected engine output" for a line where UCI allows none)."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.seen = []

    def emit(self, record):
        self.seen.append(record.getMessage())


WARNINGS = Warnings()
logging.getLogger("chess.engine").addHandler(WARNINGS)


def open_engine(binary, **options):
    engine = chess.engine.SimpleEngine.popen_uci([binary, "uci"], timeout=TIMEOUT)
    if options:
        engine.configure(options)
    return engine


def analyses(binary):
    engine = open_engine(binary)
    check(engine.id.get("name", "").startswith("guoxiang"), "id name")
    for name in ["Hash", "Threads", "MultiPV", "Move Overhead", "Clear Hash", "Ponder", "UCI_Chess960",
                 "UCI_LimitStrength", "UCI_Elo", "Skill Level", "UCI_ShowWDL", "SyzygyPath"]:
        check(name in engine.options, f"option {name}")

    # lichess-bot's settings: a Syzygy path (here one that does not exist: said so, nothing else changes) and
    # win/draw/loss chances in the info lines. Tables that exist: tests/syzygy_python.py.
    wdl_engine = open_engine(binary, SyzygyPath="./syzygy/", UCI_ShowWDL=True, Hash=256, Threads=2)
    info = wdl_engine.analyse(chess.Board("4k3/8/8/8/8/8/8/3QK3 w - - 0 1"), chess.engine.Limit(depth=6))
    wdl = info.get("wdl")
    check(wdl is not None and wdl.white().total() == 1000 and wdl.white().wins > 900,
          f"UCI_ShowWDL: a queen up wins ({wdl})")
    check("no tables are used" in info.get("string", ""),
          f"the SyzygyPath notice comes with the search: {info.get('string')!r}")
    check(not WARNINGS.seen, f"python-chess saw no unexpected engine output: {WARNINGS.seen}")
    wdl_engine.quit()

    board = chess.Board()
    info = depth8 = engine.analyse(board, chess.engine.Limit(depth=8))
    check(info.get("depth", 0) >= 8 and info["pv"] and info["pv"][0] in board.legal_moves, "analyse depth 8")
    check("score" in info and "nodes" in info and "time" in info, "info has score, nodes, time")

    info = engine.analyse(board, chess.engine.Limit(time=0.3))
    check(info["pv"][0] in board.legal_moves, "analyse time 0.3 s")

    info = engine.analyse(board, chess.engine.Limit(nodes=20000))
    check(info["pv"][0] in board.legal_moves and info.get("nodes", 0) < 40000, "analyse nodes 20000")

    mate_in_2 = chess.Board("7k/8/8/8/8/8/R7/1R4K1 w - - 0 1")
    info = engine.analyse(mate_in_2, chess.engine.Limit(mate=2))
    check(info["score"].white() == chess.engine.Mate(2), f"mate 2 found ({info['score']})")

    mate_in_3 = chess.Board("8/8/8/8/8/4K3/R7/6k1 w - - 0 1")
    info = engine.analyse(mate_in_3, chess.engine.Limit(depth=10))
    check(info["score"].white() == chess.engine.Mate(3), f"mate 3 found ({info['score']})")

    infos = engine.analyse(board, chess.engine.Limit(depth=6), multipv=3)
    firsts = {i["pv"][0] for i in infos}
    check(len(infos) == 3 and len(firsts) == 3, "MultiPV 3 gives three different moves")
    check(all(m in board.legal_moves for m in firsts), "MultiPV moves legal")

    # Every move of the principal variation is legal.
    b = board.copy()
    for m in depth8["pv"]:
        if m not in b.legal_moves:
            check(False, f"pv move {m} legal in {b.fen()}")
        b.push(m)
    check(True, f"depth-8 pv of {len(depth8['pv'])} legal moves")

    stalemate = chess.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    info = engine.analyse(stalemate, chess.engine.Limit(depth=3))
    check(info.get("score") is None or info["score"].relative == chess.engine.Cp(0), "stalemate scores 0")
    engine.quit()


def play_game(white, black, limit, max_plies=120):
    board = chess.Board()
    engines = [white, black]
    while not board.is_game_over(claim_draw=True) and board.ply() < max_plies:
        engine = engines[0 if board.turn == chess.WHITE else 1]
        result = engine.play(board, limit)
        if result.move is None or result.move not in board.legal_moves:
            print("FAIL: illegal move", result.move, "in", board.fen())
            sys.exit(1)
        if result.ponder is not None:
            after = board.copy()
            after.push(result.move)
            if result.ponder not in after.legal_moves:
                print("FAIL: illegal ponder move", result.ponder, "after", result.move, "in", board.fen())
                sys.exit(1)
        board.push(result.move)
    return board


def games(binary):
    strong = open_engine(binary)
    board = play_game(strong, strong, chess.engine.Limit(time=0.05))
    check(True, f"self-play at 50 ms/move: {board.ply()} plies, result {board.result(claim_draw=True)}")

    weak = open_engine(binary, UCI_LimitStrength=True, UCI_Elo=800)
    board = play_game(strong, weak, chess.engine.Limit(time=0.05))
    check(True, f"full strength vs level 1: {board.ply()} plies, result {board.result(claim_draw=True)}")

    mid = open_engine(binary, **{"Skill Level": 10})
    board = play_game(mid, weak, chess.engine.Limit(time=0.05))
    check(True, f"skill 10 vs level 1: {board.ply()} plies, result {board.result(claim_draw=True)}")

    clocked = open_engine(binary, Threads=2, Hash=32)
    board = play_game(clocked, strong, chess.engine.Limit(white_clock=2, black_clock=2, white_inc=0.05,
                                                         black_inc=0.05), max_plies=80)
    check(True, f"clock game, 2 threads vs 1: {board.ply()} plies")

    # python-chess sets UCI_Chess960 itself for a Chess960 board.
    c960 = open_engine(binary)
    board = chess.Board.from_chess960_pos(100)
    board.chess960 = True
    for _ in range(30):
        if board.is_game_over():
            break
        result = c960.play(board, chess.engine.Limit(depth=4))
        if result.move not in board.legal_moves:
            print("FAIL: illegal Chess960 move", result.move, board.fen())
            sys.exit(1)
        board.push(result.move)
    check(True, "Chess960 mode: 30 legal moves")
    for e in (strong, weak, mid, clocked, c960):
        e.quit()


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    binary = sys.argv[1]
    analyses(binary)
    games(binary)
    print("all python-chess checks passed")


if __name__ == "__main__":
    main()
