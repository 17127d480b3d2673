#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# End-to-end tests of the web UI: headless Chromium (Debian's) against a real server.
#
#   bash tests/e2e/run.sh [path/to/guoxiang]      (default: target/release/guoxiang)
#
# Builds nothing: the binary must exist (with the web UI embedded, or web/dist read from disk in debug builds).
# Starts the server on a free port with a temporary SQLite database (GUOXIANG_SERVER_TEST_DB=postgres: a new schema
# on the PostgreSQL of $GUOXIANG_TEST_POSTGRES, as the server's Rust tests do), runs the specs with node's test runner, stops
# the server, and exits non-zero on failure. Needs node ≥ 20, /usr/bin/chromium (apt-get install -y chromium),
# python3 with python-chess 1.11.2 (tests/requirements.txt) for the PGN check; installs this folder's npm packages
# (playwright-core, chessops) with `npm ci` when they are missing. Set GX_E2E_ONLY=friend to run one spec file,
# GX_E2E_ONLY=friend,tournament for several (prefixes of the file names).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
BIN="${1:-$ROOT/target/release/guoxiang}"
case "$BIN" in /*) ;; *) BIN="$PWD/$BIN" ;; esac

if [[ ! -x "$BIN" ]]; then
  echo "e2e: no server binary at $BIN (build it: cargo build --release -p guoxiang)" >&2
  exit 2
fi
if [[ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]]; then
  echo "e2e: ${CHROMIUM:-/usr/bin/chromium} is missing: apt-get install -y chromium" >&2
  exit 2
fi
if ! python3 -c 'import chess.pgn' 2>/dev/null; then
  echo "e2e: python-chess is missing: python3 -m pip install -r tests/requirements.txt" >&2
  exit 2
fi
if [[ ! -d "$HERE/node_modules/playwright-core" || ! -d "$HERE/node_modules/chessops" ]]; then
  (cd "$HERE" && npm ci --no-audit --no-fund --loglevel=error)
fi

# One server for all the specs (each spec file may also start its own when GX_BASE is unset). Its database: a SQLite
# file, or with GUOXIANG_SERVER_TEST_DB=postgres a new schema on the PostgreSQL of $GUOXIANG_TEST_POSTGRES (lib.mjs
# does the same for the servers the specs start).
TMP="$(mktemp -d)"
PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')"
DB="sqlite://$TMP/e2e.db"
if [[ "${GUOXIANG_SERVER_TEST_DB:-}" == postgres ]]; then
  if [[ -z "${GUOXIANG_TEST_POSTGRES:-}" ]]; then
    echo 'e2e: GUOXIANG_SERVER_TEST_DB=postgres needs GUOXIANG_TEST_POSTGRES (eval "$(bash .ci/postgres.sh)")' >&2
    exit 2
  fi
  SCHEMA="e2e_$$_$RANDOM"
  psql "$GUOXIANG_TEST_POSTGRES" -qc "CREATE SCHEMA $SCHEMA"
  case "$GUOXIANG_TEST_POSTGRES" in *\?*) SEP='&' ;; *) SEP='?' ;; esac
  DB="$GUOXIANG_TEST_POSTGRES${SEP}options=-c%20search_path%3D$SCHEMA"
fi
# The puzzle trainer's spec picks its puzzles by id: the hand-composed fixture goes into the database first (the
# server then imports no default set, its puzzle table not being empty).
if ! "$BIN" puzzles import "$HERE/fixtures/puzzles.csv" --database "$DB" >"$TMP/import.log" 2>&1; then
  echo "e2e: importing tests/e2e/fixtures/puzzles.csv failed:" >&2
  cat "$TMP/import.log" >&2
  rm -rf "$TMP"
  exit 1
fi
# The opening explorer's spec reads a small imported database.
if ! "$BIN" games import "$HERE/fixtures/games.pgn" --database "$DB" >"$TMP/import.log" 2>&1; then
  echo "e2e: importing tests/e2e/fixtures/games.pgn failed:" >&2
  cat "$TMP/import.log" >&2
  rm -rf "$TMP"
  exit 1
fi
# The computer answers at once in the tests (its human pace, `--computer-reply-ms`, would only slow them); specs that
# start their own server (lib.mjs) inherit this.
export GUOXIANG_COMPUTER_REPLY_MS="${GUOXIANG_COMPUTER_REPLY_MS:-0}"
RUST_LOG="${RUST_LOG:-warn}" "$BIN" serve --addr "127.0.0.1:$PORT" --database "$DB" >"$TMP/server.log" 2>&1 &
SERVER=$!
cleanup() {
  kill "$SERVER" 2>/dev/null || true
  wait "$SERVER" 2>/dev/null || true
  rm -rf "$TMP"
}
trap cleanup EXIT

for _ in $(seq 1 300); do
  if curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1; then break; fi
  if ! kill -0 "$SERVER" 2>/dev/null; then
    echo "e2e: the server exited:" >&2
    cat "$TMP/server.log" >&2
    exit 1
  fi
  sleep 0.1
done

export GX_BASE="http://127.0.0.1:$PORT"
export GX_BIN="$BIN"
# Specs that run the binary's shell commands on the server's database (e.g. `user admin NAME`).
export GX_DATABASE="$DB"
SPECS=()
for f in "$HERE"/*.test.mjs; do
  if [[ -z "${GX_E2E_ONLY:-}" ]]; then SPECS+=("$f"); continue; fi
  for only in ${GX_E2E_ONLY//,/ }; do
    if [[ "$(basename "$f")" == "$only"* ]]; then SPECS+=("$f"); break; fi
  done
done
echo "e2e: server $("$BIN" --version 2>/dev/null || echo "$BIN") at $GX_BASE (${DB%%:*}); ${#SPECS[@]} spec files"
status=0
# One file at a time: the machine is small and the games are timed.
node --test --test-concurrency=1 --test-reporter=spec "${SPECS[@]}" || status=$?
if [[ $status -ne 0 ]]; then
  echo "e2e: FAILED; last server log lines:" >&2
  tail -n 40 "$TMP/server.log" >&2 || true
fi
exit $status
