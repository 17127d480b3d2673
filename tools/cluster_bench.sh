#!/usr/bin/env bash
# The cost of a move that crosses nodes (issue 19): three `guoxiang serve --broker` nodes on one PostgreSQL (a new
# schema of .ci/postgres.sh's server) and one Redis (a redis-server of its own on a Unix socket), then
# `guoxiang loadtest` alternately
#   local: every player connected to node a, so every game is made and owned there;
#   spread: the players connected to nodes b and c; the lobby makes each game on the accepting player's node, so
#           the challenger's moves (half of all) go to the other node through Redis and back (the report's
#           "cluster:" line counts them);
# ROUNDS times each, side by side in one run (docs/benchmarks.md, "Cluster").
#
#   bash tools/cluster_bench.sh [GAMES] [SECONDS] [ROUNDS]     # default 300 games, 20 s, 2 rounds
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES="${1:-300}"
SECS="${2:-20}"
ROUNDS="${3:-2}"
BIN=target/release/guoxiang
[ -x "$BIN" ] || cargo build --release --locked --bin guoxiang
command -v redis-server >/dev/null || { echo "cluster_bench: needs redis-server (apt-get install redis-server)" >&2; exit 2; }
eval "$(bash .ci/postgres.sh)"
TMP="$(mktemp -d)"
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$TMP"
}
trap cleanup EXIT
redis-server --port 0 --unixsocket "$TMP/redis.sock" --save '' --appendonly no >/dev/null &
PIDS+=($!)
while [ ! -S "$TMP/redis.sock" ]; do sleep 0.05; done
SCHEMA="bench_$$"
psql "$GUOXIANG_TEST_POSTGRES" -qc "CREATE SCHEMA $SCHEMA"
case "$GUOXIANG_TEST_POSTGRES" in *\?*) SEP='&' ;; *) SEP='?' ;; esac
DB="$GUOXIANG_TEST_POSTGRES${SEP}options=-c%20search_path%3D$SCHEMA"
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
declare -A URL
for n in a b c; do
  p="$(port)"
  RUST_LOG=warn "$BIN" serve --addr "127.0.0.1:$p" --database "$DB" --broker "redis+unix://$TMP/redis.sock" \
    --node "$n" --max-connections-per-ip 100000 --metrics-public >"$TMP/$n.log" 2>&1 &
  PIDS+=($!)
  until curl -sf "http://127.0.0.1:$p/readyz" >/dev/null; do sleep 0.1; done
  URL[$n]="http://127.0.0.1:$p"
done
echo "nodes: a ${URL[a]} (runs the lobby), b ${URL[b]}, c ${URL[c]}; $GAMES games, $SECS s, $ROUNDS rounds"
for r in $(seq 1 "$ROUNDS"); do
  echo "== round $r: local (every player on node a)"
  "$BIN" loadtest --url "${URL[a]}" --games "$GAMES" --duration "$SECS" | grep -E 'measured|latency|errors|cluster'
  echo "== round $r: spread (players on nodes b and c, each game on one of its players' nodes)"
  "$BIN" loadtest --url "${URL[b]}" --url "${URL[c]}" --games "$GAMES" --duration "$SECS" \
    | grep -E 'measured|latency|errors|cluster'
done
echo "== each node's counters over the whole run (/metrics)"
cat >"$TMP/m.py" <<'PY'
import sys
name = sys.argv[1]
v = {}
for line in sys.stdin:
    parts = line.split()
    if not line.startswith("#") and len(parts) == 2:
        v[parts[0]] = float(parts[1])
def g(k):
    return v.get("guoxiang_" + k, 0.0)
def mean_ms(k):
    return 1000 * g(k + "_sum") / g(k + "_count") if g(k + "_count") else 0.0
print("node %s: %.0f moves in %.0f commits (%.0f writes); broker %.0f published, %.0f received, %.0f dropped, "
      "lag mean %.2f ms; %.0f remote requests, round trip mean %.2f ms"
      % (name, g("moves_total"), g("commits_total"), g("commit_jobs_total"), g("broker_published_total"),
         g("broker_received_total"), g("broker_dropped_total"), mean_ms("broker_lag_seconds"),
         g("remote_requests_total"), mean_ms("broker_request_seconds")))
PY
for n in a b c; do
  curl -sf "${URL[$n]}/metrics" | python3 "$TMP/m.py" "$n"
done
