#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the match referee, fastchess (https://github.com/Disservin/fastchess, MIT), from its public source at a
# pinned commit, into target/tools/fastchess (issue 44; docs/engine.md, "Referee"). Needs git, make and g++ 7.3 or
# newer (Debian: apt-get install git make g++). Nothing of it is committed here.
#
#   tools/fastchess.sh                 # clone from GitHub at the pinned commit and build
#   FASTCHESS_SRC=DIR tools/fastchess.sh   # build from a local clone (a machine without GitHub access)
#
# Then, e.g. (docs/engine.md gives the full command of every figure):
#   target/tools/fastchess -engine cmd=target/release/guoxiang name=guoxiang -engine cmd=toga2 name=toga \
#     -each tc=10+0.1 proto=uci option.Hash=16 option.Threads=1 -rounds 200 -games 2 -repeat -concurrency 2 \
#     -openings file=target/books/test.epd format=epd order=random -pgnout file=match.pgn
set -euo pipefail

COMMIT=74deac23aadc6718fa0f8e24ac95d16392d79444
URL=https://github.com/Disservin/fastchess.git
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/target/tools
work=$out/fastchess-src
mkdir -p "$out"

step() { printf '[fastchess] %s\n' "$*" >&2; }

command -v g++ >/dev/null || { echo "fastchess.sh: g++ is missing (Debian: apt-get install g++ make)" >&2; exit 1; }
command -v make >/dev/null || { echo "fastchess.sh: make is missing (Debian: apt-get install make)" >&2; exit 1; }

rm -rf "$work"
if [ -n "${FASTCHESS_SRC:-}" ]; then
  step "source: $FASTCHESS_SRC at $COMMIT"
  git clone -q "$FASTCHESS_SRC" "$work"
else
  step "source: $URL at $COMMIT"
  git clone -q "$URL" "$work"
fi
git -C "$work" checkout -q "$COMMIT" || { echo "fastchess.sh: commit $COMMIT not found in the source" >&2; exit 1; }

jobs=$(nproc 2>/dev/null || echo 2)
step "building with $jobs jobs (a few minutes)"
make -C "$work" -j"$jobs" >"$out/fastchess-build.log" 2>&1 || {
  echo "fastchess.sh: the build failed; the last lines of $out/fastchess-build.log:" >&2
  tail -20 "$out/fastchess-build.log" >&2
  exit 1
}
cp "$work/fastchess" "$out/fastchess"
step "built $out/fastchess ($("$out/fastchess" --version 2>/dev/null | head -1 || echo "version unknown"))"
