#!/usr/bin/env python3
# Independent oracle for the guoxiang-syzygy tests: reads FENs on stdin, one per line, and answers each with a
# line "WDL DTZ" from python-chess's Syzygy reader (DTZ "-" when its table is missing, "ERR <text>" on failure).
# Usage: oracle.py TABLE_DIR [MORE_DIRS...]
import sys

import chess
import chess.syzygy


def main() -> None:
    tables = chess.syzygy.open_tablebase(sys.argv[1])
    for extra in sys.argv[2:]:
        tables.add_directory(extra)
    for line in sys.stdin:
        fen = line.strip()
        if not fen:
            continue
        board = chess.Board(fen)
        try:
            wdl = tables.probe_wdl(board)
        except KeyError as e:
            print(f"ERR {e}", flush=True)
            continue
        try:
            dtz = str(tables.probe_dtz(board))
        except KeyError:
            dtz = "-"
        print(f"{wdl} {dtz}", flush=True)


if __name__ == "__main__":
    main()
