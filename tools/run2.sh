#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# run2.sh SERVER LOADGEN GAMES DURATION PORT: a fresh SQLite server, then the load test against it; prints the report.
set -u
SERVER=$1; LOADGEN=$2; GAMES=$3; DUR=$4; PORT=$5
mkdir -p /tmp/lt && rm -f /tmp/lt/x$PORT.db*
env ${SERVER_ENV:-} "$SERVER" serve --addr 127.0.0.1:$PORT --database sqlite:///tmp/lt/x$PORT.db --metrics-public >/tmp/lt/srv$PORT.log 2>&1 &
SPID=$!
for i in $(seq 1 100); do curl -sf http://127.0.0.1:$PORT/readyz >/dev/null && break; sleep 0.2; done
"$LOADGEN" loadtest --url http://127.0.0.1:$PORT --games $GAMES --duration $DUR 2>&1 | tail -25
kill $SPID; wait $SPID 2>/dev/null
