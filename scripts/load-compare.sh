#!/usr/bin/env bash
# The online load test (crates/server/examples/load.rs) side by side on one machine in one run:
# one instance on SQLite, one on PostgreSQL, two on PostgreSQL (each game's players on different
# instances, so every move crosses them), at each number of games given. Each run has a fresh
# database (a new SQLite file in $TMPDIR, a new PostgreSQL database), and prints one table row.
# A measurement, not a test: docs/SERVER.md ("Several instances", "Load with two instances")
# has the figures and the command.
#
#   cargo build --release -p virada-server --example load
#   PG_DURABLE=1 scripts/pg-test.sh scripts/load-compare.sh 300 1000
#
# PG_DURABLE=1 keeps PostgreSQL's durability settings at their defaults (every commit flushed to
# disk, as SQLite's synchronous=FULL does for each move); without it scripts/pg-test.sh turns
# fsync off. LOAD_SECONDS (default 30), LOAD_SPECTATORS (1), LOAD_BIN (the release build) and
# LOAD_RUNS (default "sqlite pg1 pg2") change the runs.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${VIRADA_TEST_PG:?run under scripts/pg-test.sh, which starts PostgreSQL and sets VIRADA_TEST_PG}"
BIN=${LOAD_BIN:-target/release/examples/load}
SECONDS_EACH=${LOAD_SECONDS:-30}
SPECTATORS=${LOAD_SPECTATORS:-1}
RUNS=${LOAD_RUNS:-sqlite pg1 pg2}
[ -x "$BIN" ] || { echo "no $BIN: cargo build --release -p virada-server --example load" >&2; exit 1; }
[ "$#" -gt 0 ] || set -- 300 1000
PSQL=$(ls /usr/lib/postgresql/*/bin/psql 2>/dev/null | sort -t/ -k4 -n -r | head -n 1)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/virada-load.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

base=${VIRADA_TEST_PG%/*}
echo "PostgreSQL: $("$PSQL" -X -q -t -A "$VIRADA_TEST_PG" -c "SELECT version()" | cut -d' ' -f1-2);" \
  "fsync=$("$PSQL" -X -q -t -A "$VIRADA_TEST_PG" -c 'SHOW fsync')," \
  "synchronous_commit=$("$PSQL" -X -q -t -A "$VIRADA_TEST_PG" -c 'SHOW synchronous_commit');" \
  "commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- crates || echo '+changes'); $(nproc) cores;" \
  "load average $(cut -d' ' -f1-3 /proc/loadavg)"
# CPU time is the measure a loaded machine does not distort: this shell's waited children (the
# load tool and the servers it spawned and reaped) and PostgreSQL's (the postmaster's own and its
# reaped backends': every backend of a run has exited once its servers are gone).
POSTMASTER=$("$PSQL" -X -q -t -A "$VIRADA_TEST_PG" -c "SELECT split_part(pg_read_file('postmaster.pid'), E'\n', 1)")
ticks() { awk '{ print $14 + $15 + $16 + $17 }' "/proc/$1/stat"; }
HZ=$(getconf CLK_TCK)
echo "| games | run | moves/s | p50 ms | p99 ms | max ms | errors | set-up s | CPU ms/move: virada+tool / PostgreSQL |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
n=0
notes=()
for games in "$@"; do
  for run in $RUNS; do
    n=$((n + 1))
    case $run in
      sqlite) db=$WORK/load-$n.sqlite; instances=1 ;;
      pg1 | pg2)
        "$PSQL" -X -q "$VIRADA_TEST_PG" -c "CREATE DATABASE load_$n" >/dev/null
        db=$base/load_$n
        instances=${run#pg}
        ;;
      *) echo "unknown run $run (sqlite, pg1, pg2)" >&2; exit 2 ;;
    esac
    out=$WORK/run-$n.txt
    # What PostgreSQL's active backends wait on, five times a second (CPU: not waiting).
    sampler=
    if [ "$run" != sqlite ]; then
      ( while :; do
          "$PSQL" -X -q -t -A "$VIRADA_TEST_PG" -c "SELECT COALESCE(wait_event_type || ':' || wait_event, 'CPU')
            FROM pg_stat_activity WHERE backend_type = 'client backend' AND state = 'active'
            AND pid <> pg_backend_pid()" 2>/dev/null || true
          sleep 0.2
        done ) >"$WORK/waits-$n.txt" &
      sampler=$!
    fi
    own0=$(ticks $$)
    pg0=$(ticks "$POSTMASTER")
    "$BIN" --spawn-server "$db" --instances "$instances" --games "$games" \
      --spectators "$SPECTATORS" --seconds "$SECONDS_EACH" >"$out" 2>&1 || true
    own=$(( $(ticks $$) - own0 ))
    if [ -n "$sampler" ]; then
      kill "$sampler" 2>/dev/null || true
      wait "$sampler" 2>/dev/null || true
      notes+=("$games $run, active backends' waits (samples): $(sort "$WORK/waits-$n.txt" | uniq -c | sort -rn | head -n 6 | awk '{ printf "%s %s, ", $2, $1 }')")
    fi
    # The backends of the killed servers exit when their sockets close.
    for _ in $(seq 1 50); do
      [ "$("$PSQL" -X -q -t -A "$VIRADA_TEST_PG" -c "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'")" -le 1 ] && break
      sleep 0.1
    done
    pg=$(( $(ticks "$POSTMASTER") - pg0 ))
    rate=$(sed -n 's/^moves: .* = \([0-9]*\) moves\/s$/\1/p' "$out")
    read -r p50 p99 max < <(sed -n 's/.*p50=\([0-9.]*\) ms p99=\([0-9.]*\) ms max=\([0-9.]*\) ms.*/\1 \2 \3/p' "$out")
    errors=$(sed -n 's/^errors: \([0-9]*\)$/\1/p' "$out")
    setup=$(sed -n 's/.* games ready in \([0-9.]*\) s.*/\1/p' "$out")
    moves=$(sed -n 's/^moves: \([0-9]*\) in .*/\1/p' "$out")
    cpu='?'
    if [ -n "$moves" ] && [ "$moves" -gt 0 ]; then
      cpu=$(awk -v a="$own" -v b="$pg" -v m="$moves" -v hz="$HZ" \
        'BEGIN { printf "%.2f / %.2f", a * 1000 / hz / m, b * 1000 / hz / m }')
    fi
    echo "| $games | $run | ${rate:-?} | ${p50:-?} | ${p99:-?} | ${max:-?} | ${errors:-?} | ${setup:-?} | $cpu |"
    if [ -z "$rate" ] || [ "${errors:-1}" != 0 ]; then
      sed 's/^/    /' "$out" | tail -n 15
    fi
  done
done
for note in "${notes[@]}"; do echo "$note"; done
