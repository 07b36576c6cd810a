#!/usr/bin/env bash
# Runs tests against a throwaway PostgreSQL cluster: finds Debian's PostgreSQL programs
# (/usr/lib/postgresql/*/bin; installs the `postgresql` package with apt-get when they are missing
# and this is root, else says how), runs initdb in a temporary folder as an unprivileged user
# (as root: the `postgres` user, created by that package), starts the server on a free port of
# 127.0.0.1, exports VIRADA_TEST_PG=postgres://virada@127.0.0.1:PORT/virada_test, runs the tests,
# and stops and deletes the cluster at the end, whatever happens.
#
#   scripts/pg-test.sh                  the store's suite (on both stores), then the server's tests
#                                       twice: on SQLite, then with VIRADA_TEST_STORE=postgres
#                                       (every API test against PostgreSQL)
#   scripts/pg-test.sh COMMAND [ARG...] COMMAND with VIRADA_TEST_PG set instead, e.g.
#                                       scripts/pg-test.sh cargo test -p virada-store
#
# Tests that need PostgreSQL read VIRADA_TEST_PG; without it they fail under CI and print SKIPPED
# elsewhere (crates/testdata). Called by scripts/test-all.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

# The newest installed PostgreSQL server (Debian keeps each major version in its own folder).
find_bin() {
  local dir
  for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k4 -n -r); do
    if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then
      echo "$dir"
      return
    fi
  done
}

PG_BIN=$(find_bin)
if [ -z "$PG_BIN" ]; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    echo "== PostgreSQL is not installed: apt-get install postgresql"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y --no-install-recommends postgresql >/dev/null ||
      { apt-get update >/dev/null && apt-get install -y --no-install-recommends postgresql >/dev/null; }
    PG_BIN=$(find_bin)
  fi
  if [ -z "$PG_BIN" ]; then
    echo "error: the PostgreSQL tests need Debian's PostgreSQL server programs" >&2
    echo "       (/usr/lib/postgresql/*/bin/initdb). Install them with:" >&2
    echo "           sudo apt-get install postgresql" >&2
    echo "       or point VIRADA_TEST_PG at a database you may create schemas in and run the" >&2
    echo "       tests yourself." >&2
    exit 1
  fi
fi

# PostgreSQL refuses to run as root: as root, the cluster belongs to an unprivileged user.
if [ "$(id -u)" -eq 0 ]; then
  PG_USER=postgres
  if ! id "$PG_USER" >/dev/null 2>&1; then
    echo "== creating the system user $PG_USER to own the throwaway cluster"
    useradd --system --no-create-home --shell /usr/sbin/nologin "$PG_USER"
  fi
  as_pg() { runuser -u "$PG_USER" -- "$@"; }
else
  as_pg() { "$@"; }
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/virada-pg.XXXXXX")
DATA=$TMP/data
LOG=$TMP/server.log
if [ "$(id -u)" -eq 0 ]; then
  chown "$PG_USER" "$TMP"
fi

stop() {
  local status=$?
  if [ -f "$DATA/postmaster.pid" ]; then
    as_pg "$PG_BIN/pg_ctl" -D "$DATA" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$TMP"
  exit "$status"
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# A port nothing answers on (bash connects to it; a refusal means it is free).
free_port() {
  local port
  for _ in $(seq 1 50); do
    port=$(( 20000 + RANDOM % 40000 ))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return
    fi
  done
  echo "error: no free port found" >&2
  return 1
}

echo "== throwaway PostgreSQL ($PG_BIN) in $TMP"
as_pg "$PG_BIN/initdb" -D "$DATA" -U virada --auth=trust --no-locale -E UTF8 >"$TMP/initdb.log" 2>&1 ||
  { cat "$TMP/initdb.log" >&2; exit 1; }
started=
for _ in 1 2 3; do
  PORT=$(free_port)
  # Durability is of no use in a cluster deleted at the end: fsync off spares the disk. Load
  # measurements (scripts/load-compare.sh) set PG_DURABLE=1 to keep PostgreSQL's defaults, as a
  # real installation has them (every commit flushed, as SQLite's synchronous=FULL).
  durability="-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
  if [ "${PG_DURABLE:-0}" = 1 ]; then
    durability=""
  fi
  if as_pg "$PG_BIN/pg_ctl" -D "$DATA" -l "$LOG" -w -t 30 -o "-p $PORT -c listen_addresses=127.0.0.1 \
      -c unix_socket_directories=$TMP -c max_connections=300 $durability" start >/dev/null; then
    started=1
    break
  fi
done
if [ -z "$started" ]; then
  echo "error: the throwaway PostgreSQL did not start:" >&2
  cat "$LOG" >&2
  exit 1
fi
as_pg "$PG_BIN/createdb" -h "$TMP" -p "$PORT" -U virada virada_test
export VIRADA_TEST_PG="postgres://virada@127.0.0.1:$PORT/virada_test"
echo "== VIRADA_TEST_PG=$VIRADA_TEST_PG"

if [ "$#" -gt 0 ]; then
  "$@"
else
  echo "== the store's tests (the conformance suite on SQLite and PostgreSQL)"
  cargo test -p virada-store
  echo "== server tests (SQLite)"
  cargo test -p virada-server
  echo "== server tests with VIRADA_TEST_STORE=postgres (every test server on PostgreSQL)"
  VIRADA_TEST_STORE=postgres cargo test -p virada-server
fi
