#!/usr/bin/env bash
# Starts a throwaway PostgreSQL for the store's tests and prints the line that points them at it:
#
#   eval "$(bash .ci/postgres.sh)"      # sets GUOXIANG_TEST_POSTGRES
#   cargo test -p guoxiang-store
#
# Installs Debian's postgresql when no initdb is found, keeps the cluster in /tmp/guoxiang-pg (trust auth, listening
# on 127.0.0.1:5433 only, its socket in the same folder), and creates the role guoxiang owning the database
# guoxiang_test. Idempotent: a cluster already running is reused. PostgreSQL refuses to run as root, so under root
# the cluster belongs to the postgres user (which the Debian package creates). Stop it with
#   pg_ctl -D /tmp/guoxiang-pg/data stop      (as that user).
# Everything but the export line goes to stderr.
set -euo pipefail

PGROOT=/tmp/guoxiang-pg
PGDATA="$PGROOT/data"
PORT=5433
ROLE=guoxiang
DB=guoxiang_test

log() { echo "postgres.sh: $*" >&2; }

find_bindir() {
  local d
  if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
    dirname "$(readlink -f "$(command -v initdb)")"
    return 0
  fi
  # Debian keeps the server binaries out of PATH; take the newest version installed.
  for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$d/initdb" ]; then
      echo "$d"
      return 0
    fi
  done
  return 1
}

if ! BINDIR="$(find_bindir)"; then
  log "installing Debian's postgresql"
  if [ "$(id -u)" -ne 0 ]; then
    log "initdb is missing and this is not root: install postgresql first"
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq postgresql >&2
  BINDIR="$(find_bindir)" || { log "no initdb after installing postgresql"; exit 1; }
fi
log "binaries in $BINDIR"

# The user that owns and runs the cluster.
if [ "$(id -u)" -eq 0 ]; then
  RUNAS=postgres
  if ! id "$RUNAS" >/dev/null 2>&1; then
    log "creating the system user $RUNAS"
    useradd --system --user-group --home-dir "$PGROOT" --shell /bin/bash "$RUNAS"
  fi
  as_pg() { runuser -u "$RUNAS" -- "$@"; }
else
  RUNAS="$(id -un)"
  as_pg() { "$@"; }
fi

mkdir -p "$PGROOT"
chmod 0755 "$PGROOT"
if [ "$(id -u)" -eq 0 ]; then
  chown "$RUNAS": "$PGROOT"
fi

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  log "creating the cluster in $PGDATA"
  as_pg "$BINDIR/initdb" -D "$PGDATA" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >&2 ||
    as_pg "$BINDIR/initdb" -D "$PGDATA" -U postgres --auth=trust --encoding=UTF8 --locale=C >&2
fi

if as_pg "$BINDIR/pg_ctl" -D "$PGDATA" status >/dev/null 2>&1; then
  log "already running"
else
  log "starting on 127.0.0.1:$PORT"
  # fsync stays on: the tests are about durability too, and the suite is small.
  # A loaded machine can take more than a minute to start it (and to recover a cluster left running): wait long.
  as_pg "$BINDIR/pg_ctl" -D "$PGDATA" -l "$PGROOT/server.log" -w -t 300 \
    -o "-c listen_addresses=127.0.0.1 -p $PORT -c unix_socket_directories=$PGROOT -c max_connections=200" \
    start >&2 || { cat "$PGROOT/server.log" >&2; exit 1; }
fi

psql_admin() { as_pg "$BINDIR/psql" -h 127.0.0.1 -p "$PORT" -U postgres -d postgres -v ON_ERROR_STOP=1 -qtA "$@"; }

for _ in $(seq 1 30); do
  if psql_admin -c 'SELECT 1' >/dev/null 2>&1; then break; fi
  sleep 1
done

if [ "$(psql_admin -c "SELECT 1 FROM pg_roles WHERE rolname = '$ROLE'")" != 1 ]; then
  log "creating role $ROLE"
  psql_admin -c "CREATE ROLE $ROLE LOGIN" >&2
fi
if [ "$(psql_admin -c "SELECT 1 FROM pg_database WHERE datname = '$DB'")" != 1 ]; then
  log "creating database $DB"
  psql_admin -c "CREATE DATABASE $DB OWNER $ROLE ENCODING 'UTF8' TEMPLATE template0" >&2
fi

echo "export GUOXIANG_TEST_POSTGRES=postgres://$ROLE@127.0.0.1:$PORT/$DB"
