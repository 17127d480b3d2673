#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The engine's test book (issue 44; docs/engine.md, "Books apart"): the public balanced book 8moves_v3.pgn
# (34,700 lines of 8 moves, official-stockfish/books, CC0) fetched at a pinned commit and checked by its SHA-256,
# then only the lines no training game can start from: `guoxiang-tune testbook` drops every line that passes a
# position of datagen's book (../shared/data/books/noob_3moves.epd) or one it reaches with its 2 random plies.
# Writes target/books/8moves_v3.pgn and target/books/test.epd (the kept lines' last positions, for the referee).
#
#   tools/test_book.sh                    # fetch from GitHub
#   BOOKS_SRC=DIR tools/test_book.sh      # from a local clone of official-stockfish/books
set -euo pipefail

COMMIT=33185e117fc26e4f6d01610236bcdf71e6edae5b
FILE=8moves_v3.pgn.zip
SHA256=7e1e9dd118b4bb97d8a8b5b8a790c86e21f8509d59a27d2883767d94477be02e
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/target/books
train=${TRAIN_BOOK:-$root/../shared/data/books/noob_3moves.epd}
mkdir -p "$out"

[ -f "$train" ] || { echo "test_book.sh: the training book $train is missing (set TRAIN_BOOK)" >&2; exit 1; }
if [ -n "${BOOKS_SRC:-}" ]; then
  git -C "$BOOKS_SRC" show "$COMMIT:$FILE" >"$out/$FILE"
else
  curl -fsSL "https://raw.githubusercontent.com/official-stockfish/books/$COMMIT/$FILE" -o "$out/$FILE"
fi
echo "$SHA256  $out/$FILE" | sha256sum -c --quiet - || { echo "test_book.sh: $FILE is not the pinned file" >&2; exit 1; }
python3 -c "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extract('8moves_v3.pgn', sys.argv[2])" "$out/$FILE" "$out"
cargo build --release -q -p guoxiang-tune
"$root/target/release/guoxiang-tune" testbook --train "$train" --lines "$out/8moves_v3.pgn" --out "$out/test.epd"
