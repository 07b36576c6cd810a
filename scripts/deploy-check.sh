#!/usr/bin/env bash
# Follows docs/DEPLOY.md, "From scratch: PostgreSQL and two instances on one machine", step by
# step, as far as a test can without changing the machine for good, and fails at the first step
# that does not work as written. The commands are read from DEPLOY.md itself where a test can
# run them as written (the useradd line, createuser and createdb, the password's encoding, the
# VIRADA_DB line, the unit's ExecStart, the schema version `virada db migrate` prints), so the
# document and this check cannot drift apart:
#
#  1. a throwaway PostgreSQL cluster (Debian's programs, as scripts/pg-test.sh finds them) whose
#     pg_hba.conf has Debian's line for 127.0.0.1 (`scram-sha-256`) and no other TCP line;
#  2. the `virada` OS user: DEPLOY.md's useradd line run with `--prefix` on a copy of /etc in a
#     temporary folder (as root; without root the step is reported and skipped);
#  3. the role with a password holding @ : / # % (DEPLOY.md's example), stored as SCRAM, and
#     the database owned by it, with DEPLOY.md's createuser/createdb lines;
#  4. the environment file (mode 600) with DEPLOY.md's VIRADA_DB line, the password
#     percent-encoded; the URL without a password and with the password left unencoded are
#     refused, and no message shows the password;
#  5. `virada db migrate` with that file: "schema version 0 -> N" with DEPLOY.md's N, then
#     "already this build's";
#  6. two instances started with the unit's ExecStart (%i = a free port each): /api/health is
#     200 on both with store "postgres" and each instance's own id; a move made through one is
#     seen on the other, both ways;
#  7. both stopped with SIGTERM (the unit's KillSignal): each exits 0 within the unit's
#     TimeoutStopSec and gives its game leases up.
#
#   scripts/deploy-check.sh [VIRADA_BINARY]     (default target/debug/virada)
#
# Run by scripts/test-all.sh (after the tests, with the binary they built). Needs curl and jq
# besides PostgreSQL's programs. Takes a few seconds (13 s on the loaded 2-core machine).
set -euo pipefail
cd "$(dirname "$0")/.."
DOC=docs/DEPLOY.md
VIRADA=$(realpath "${1:-target/debug/virada}")
[ -x "$VIRADA" ] || { echo "deploy-check: no virada binary at $VIRADA (cargo build -p virada)" >&2; exit 1; }
for tool in curl jq; do
  command -v "$tool" >/dev/null || { echo "deploy-check: needs $tool (apt-get install $tool)" >&2; exit 1; }
done

step() { echo "== deploy-check: $*"; }
fail() { echo "deploy-check FAILED: $*" >&2; exit 1; }

# A line of DEPLOY.md (its leading spaces dropped) that starts with $1; fails if there is none.
doc_line() {
  local line
  line=$(sed -n 's/^ *//; \|^'"$1"'|{p;q}' "$DOC")
  [ -n "$line" ] || fail "$DOC has no line starting with '$1'"
  echo "$line"
}

# The percent-encoding of $1 for the password of a URL (RFC 3986: all but A-Z a-z 0-9 - . _ ~).
url_encode() {
  local s=$1 out='' c hex i
  for ((i = 0; i < ${#s}; i++)); do
    c=${s:i:1}
    case $c in
      [A-Za-z0-9._~-]) out+=$c ;;
      *) printf -v hex '%%%02X' "'$c"; out+=$hex ;;
    esac
  done
  echo "$out"
}

# ---------- 1. PostgreSQL ----------
PG_BIN=
for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k4 -n -r); do
  if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then PG_BIN=$dir; break; fi
done
[ -n "$PG_BIN" ] || fail "Debian's PostgreSQL programs are missing (apt-get install postgresql)"
export PATH="$PG_BIN:$PATH"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/virada-deploy.XXXXXX")
chmod 755 "$TMP"
DATA=$TMP/data
PIDS=()
cleanup() {
  local status=$?
  for pid in "${PIDS[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  if [ -f "$DATA/postmaster.pid" ]; then
    as_pg pg_ctl -D "$DATA" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  if [ "$status" -ne 0 ]; then
    for log in "$TMP"/*.log; do
      [ -f "$log" ] && { echo "--- $log" >&2; tail -n 30 "$log" >&2; }
    done
  fi
  rm -rf "$TMP"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# PostgreSQL refuses to run as root: as root (as on a server) the cluster belongs to `postgres`,
# and DEPLOY.md's `runuser -u postgres --` commands run as written; otherwise as this user.
if [ "$(id -u)" -eq 0 ]; then
  id postgres >/dev/null 2>&1 || fail "as root, the cluster needs the postgres user (apt-get install postgresql creates it)"
  chown postgres "$TMP"
  as_pg() { runuser -u postgres -- "$@"; }
else
  as_pg() { "$@"; }
fi

# Below Linux's ephemeral range (32768-60999), so no outgoing connection holds the port; an
# instance that still finds its port taken is started again on another (see below).
free_port() {
  local port
  for _ in $(seq 1 50); do
    port=$(( 20000 + RANDOM % 12000 ))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then echo "$port"; return; fi
  done
  fail "no free port found"
}

step "a throwaway PostgreSQL ($PG_BIN) with Debian's pg_hba.conf line for 127.0.0.1"
as_pg initdb -D "$DATA" -U postgres --auth=trust --no-locale -E UTF8 >"$TMP/initdb.log" 2>&1 ||
  fail "initdb failed"
HBA_LINE=$(doc_line 'host    all             all             127.0.0.1/32            scram-sha-256')
# The administrator's socket stands in for Debian's `local all postgres peer`; TCP has only
# the line DEPLOY.md relies on.
printf 'local all postgres trust\n%s\n' "$HBA_LINE" | as_pg tee "$DATA/pg_hba.conf" >/dev/null
PG_PORT=
for _ in 1 2 3; do
  PG_PORT=$(free_port)
  # Durability is of no use in a cluster deleted at the end.
  if as_pg pg_ctl -D "$DATA" -l "$TMP/postgres.log" -w -t 30 -o "-p $PG_PORT \
      -c listen_addresses=127.0.0.1 -c unix_socket_directories=$TMP -c fsync=off" \
      start >/dev/null; then
    break
  fi
  PG_PORT=
done
[ -n "$PG_PORT" ] || fail "PostgreSQL did not start"
# The administrator's commands (createuser, createdb, psql) reach it through these.
export PGHOST=$TMP PGPORT=$PG_PORT PGUSER=postgres
psql_admin() { as_pg psql -X -q -t -A -v ON_ERROR_STOP=1 -d "${2:-postgres}" -c "$1"; }
[ "$(psql_admin 'SHOW password_encryption')" = scram-sha-256 ] ||
  fail "the cluster does not store passwords as SCRAM"

# ---------- 2. the OS user ----------
USERADD=$(doc_line 'useradd ')
if [ "$(id -u)" -eq 0 ] && command -v useradd >/dev/null; then
  step "the virada OS user: $USERADD (with --prefix on a copy of /etc)"
  ROOT=$TMP/root
  mkdir -p "$ROOT/etc"
  for f in passwd group shadow gshadow login.defs; do
    [ -f "/etc/$f" ] && cp -p "/etc/$f" "$ROOT/etc/"
  done
  # Only on the copy: an existing `virada` user would make the documented command fail here.
  sed -i '/^virada:/d' "$ROOT/etc/passwd" "$ROOT/etc/group" "$ROOT/etc/shadow" "$ROOT/etc/gshadow" 2>/dev/null || true
  read -r -a words <<<"$USERADD"
  "${words[0]}" --prefix "$ROOT" "${words[@]:1}" >"$TMP/useradd.log" 2>&1 || fail "$USERADD failed"
  entry=$(grep '^virada:' "$ROOT/etc/passwd") || fail "$USERADD made no virada user"
  IFS=: read -r _ _ uid _ _ home shell <<<"$entry"
  [ "$uid" -lt 1000 ] || fail "the virada user is not a system user (uid $uid)"
  [ "$shell" = /usr/sbin/nologin ] || fail "the virada user can log in (shell $shell)"
  [ ! -e "$home" ] || [ "$home" = /nonexistent ] || fail "the virada user's home $home exists"
else
  step "SKIPPED the virada OS user (useradd needs root): $USERADD"
  [ -n "${VIRADA_SKIP_LOG:-}" ] && echo "deploy-check useradd (not root)" >>"$VIRADA_SKIP_LOG"
fi

# ---------- 3. the role and the database ----------
# DEPLOY.md's example password and its encoding: `PASSWORD` is written `ENCODED`.
example=$(grep -o 'the password `[^`]*` is written `[^`]*`' "$DOC" | head -n 1)
[ -n "$example" ] || fail "$DOC has no example of a percent-encoded password"
PASSWORD=$(sed 's/^the password `\([^`]*\)`.*/\1/' <<<"$example")
ENCODED=$(sed 's/.* is written `\([^`]*\)`$/\1/' <<<"$example")
for c in @ : / '#' %; do
  [[ $PASSWORD == *"$c"* ]] || fail "DEPLOY.md's example password lacks '$c'"
done
[ "$(url_encode "$PASSWORD")" = "$ENCODED" ] ||
  fail "DEPLOY.md encodes $PASSWORD as $ENCODED, but it is $(url_encode "$PASSWORD")"

CREATEUSER=$(doc_line 'runuser -u postgres -- createuser ')
CREATEDB=$(doc_line 'runuser -u postgres -- createdb ')
step "the role: $CREATEUSER (the password typed twice)"
run_admin_line() {
  local line=${1#runuser -u postgres -- }
  read -r -a words <<<"$line"
  # createuser reads the password from the terminal, or from standard input without one.
  as_pg setsid -w "${words[@]}"
}
printf '%s\n%s\n' "$PASSWORD" "$PASSWORD" | run_admin_line "$CREATEUSER" >"$TMP/createuser.log" 2>&1 ||
  fail "$CREATEUSER failed"
[ "$(psql_admin "SELECT rolpassword LIKE 'SCRAM-SHA-256\$%' FROM pg_authid WHERE rolname = 'virada'")" = t ] ||
  fail "the virada role has no SCRAM password"
step "the database: $CREATEDB"
run_admin_line "$CREATEDB" </dev/null >"$TMP/createdb.log" 2>&1 || fail "$CREATEDB failed"

# ---------- 4. the environment file ----------
ENV_LINE=$(doc_line 'VIRADA_DB=postgres://virada:PASSWORD@127.0.0.1:5432/virada')
ENV_FILE=$TMP/env
install -m 600 /dev/null "$ENV_FILE"
echo "$ENV_LINE" | sed "s|PASSWORD|$ENCODED|; s|:5432/|:$PG_PORT/|" >"$ENV_FILE"
step "the environment file (mode $(stat -c %a "$ENV_FILE")): $ENV_LINE"
[ "$(stat -c %a "$ENV_FILE")" = 600 ] || fail "the environment file is not mode 600"
# systemd's EnvironmentFile: KEY=VALUE lines, read as they are.
load_env() { set -a; . "$ENV_FILE"; set +a; }

# The two ways it must not work: no password (the old example), and the password unencoded.
refused() {
  local what=$1 url=$2 out
  if out=$(VIRADA_DB='' "$VIRADA" db migrate --db "$url" 2>&1); then
    fail "$what was accepted: $out"
  fi
  [[ $out != *"$PASSWORD"* && $out != *"$ENCODED"* ]] || fail "$what: the message shows the password: $out"
  echo "   refused as it must be ($what): $out"
}
refused "the URL without a password" "postgres://virada@127.0.0.1:$PG_PORT/virada"
refused "the password unencoded" "postgres://virada:$PASSWORD@127.0.0.1:$PG_PORT/virada"

# ---------- 5. migrations ----------
DOC_VERSION=$(grep -o 'schema version 0 -> [0-9]*' "$DOC" | head -n 1 | grep -o '[0-9]*$')
[ -n "$DOC_VERSION" ] || fail "$DOC shows no 'schema version 0 -> N'"
step "virada db migrate (DEPLOY.md says 0 -> $DOC_VERSION)"
out=$(load_env && "$VIRADA" db migrate 2>&1) || fail "virada db migrate failed: $out"
echo "   $out"
expected="postgres://virada@127.0.0.1:$PG_PORT/virada: schema version 0 -> $DOC_VERSION"
[ "$out" = "$expected" ] || fail "virada db migrate said '$out', DEPLOY.md '...: schema version 0 -> $DOC_VERSION'"
out=$(load_env && "$VIRADA" db migrate 2>&1) || fail "virada db migrate (again) failed: $out"
[[ $out == *"schema version $DOC_VERSION, already this build's" ]] || fail "virada db migrate again said '$out'"
[[ $out != *"$PASSWORD"* && $out != *"$ENCODED"* ]] || fail "virada db migrate shows the password"

# ---------- 6. two instances ----------
# The unit's ExecStart, its continuation lines joined.
EXEC=$(awk '/^ExecStart=/ { line = $0; while (line ~ /\\$/) { sub(/\\$/, "", line); getline more; line = line more } print line; exit }' "$DOC")
EXEC=${EXEC#ExecStart=}
[[ $EXEC == /usr/local/bin/virada\ serve* ]] || fail "$DOC's unit has no 'ExecStart=/usr/local/bin/virada serve ...'"
HOST=$(grep -o -- '--allowed-host [^ ]*' <<<"$EXEC" | head -n 1 | cut -d' ' -f2)
[ -n "$HOST" ] || fail "the unit's ExecStart has no --allowed-host"
PORTS=()
# start_instance INDEX PORT: instance INDEX (0 or 1) on PORT.
start_instance() {
  local i=$1 port=$2 cmd
  cmd=${EXEC//%i/$port}
  cmd=${cmd/\/usr\/local\/bin\/virada/$VIRADA}
  read -r -a words <<<"$cmd"
  # As systemd would: the environment file's variables, stdout and stderr to the journal.
  ( load_env && exec "${words[@]}" ) >"$TMP/web$port.log" 2>&1 &
  PIDS[i]=$!
  PORTS[i]=$port
}
P1=$(free_port)
P2=$(free_port)
[ "$P1" != "$P2" ] || P2=$(free_port)
step "two instances: ${EXEC//%i/$P1} (and $P2)"
start_instance 0 "$P1"
start_instance 1 "$P2"

# An instance is up when it says where it listens (bounded: a broken one fails the check).
# A port another process took between the probe and the bind is no fault of the unit: that
# instance starts again on another free port (at most 5 times).
for i in 0 1; do
  retries=0
  for _ in $(seq 1 300); do
    port=${PORTS[$i]}
    grep -q "listening on http://127.0.0.1:$port" "$TMP/web$port.log" && break
    if ! kill -0 "${PIDS[$i]}" 2>/dev/null; then
      wait "${PIDS[$i]}" 2>/dev/null || true
      if grep -q "Address already in use" "$TMP/web$port.log" && [ "$retries" -lt 5 ]; then
        retries=$((retries + 1))
        other=${PORTS[$((1 - i))]}
        next=$(free_port)
        while [ "$next" = "$other" ]; do next=$(free_port); done
        echo "   port $port was taken before web$port could bind it; again on $next"
        start_instance "$i" "$next"
        continue
      fi
      fail "instance web$port exited"
    fi
    sleep 0.1
  done
  port=${PORTS[$i]}
  grep -q "listening on http://127.0.0.1:$port" "$TMP/web$port.log" || fail "instance web$port does not listen"
done

P1=${PORTS[0]}
P2=${PORTS[1]}

JAR=$TMP/cookies
# A request as the proxy sends it: the public Host, the client's address appended.
http() {
  local method=$1 port=$2 path=$3 body=${4:-}
  local args=(-sS -o "$TMP/body" -w '%{http_code}' -X "$method" -b "$JAR" -c "$JAR"
    -H "Host: $HOST" -H 'X-Forwarded-For: 203.0.113.7' --max-time 20)
  [ -n "$body" ] && args+=(-H 'Content-Type: application/json' --data "$body")
  curl "${args[@]}" "http://127.0.0.1:$port$path"
}

for port in "${PORTS[@]}"; do
  code=$(http GET "$port" /api/health)
  [ "$code" = 200 ] || fail "/api/health on web$port: $code $(cat "$TMP/body")"
  jq -e --arg id "web$port" '.status == "ok" and .store == "postgres" and .instance == $id' \
    "$TMP/body" >/dev/null || fail "/api/health on web$port: $(cat "$TMP/body")"
  echo "   /api/health on web$port: 200 $(jq -c '{status, store, instance}' "$TMP/body")"
  # DEPLOY.md's own check, on the machine: plain curl, Host 127.0.0.1:PORT.
  code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 20 "http://127.0.0.1:$port/api/health")
  [ "$code" = 200 ] || fail "curl -s http://127.0.0.1:$port/api/health: $code"
done

# A game made on the first instance (which then runs it), moved on through each in turn.
code=$(http POST "$P1" /api/games '{"mode": "friend"}')
[ "$code" = 201 ] || fail "creating a game on web$P1: $code $(cat "$TMP/body")"
GAME=$(jq -r .id "$TMP/body")
move() {
  local port=$1 square=$2 ply=$3
  code=$(http POST "$port" "/api/games/$GAME/moves" "{\"square\": \"$square\", \"ply\": $ply}")
  [ "$code" = 200 ] || fail "move $square on web$port: $code $(cat "$TMP/body")"
}
# The other instance shows the moves within a bound (its copy follows the store's notice).
sees() {
  local port=$1 transcript=$2 seen=''
  for _ in $(seq 1 100); do
    code=$(http GET "$port" "/api/games/$GAME")
    [ "$code" = 200 ] || fail "reading the game on web$port: $code $(cat "$TMP/body")"
    seen=$(jq -r .transcript "$TMP/body")
    [ "$seen" = "$transcript" ] && { echo "   web$port shows $transcript"; return; }
    sleep 0.1
  done
  fail "web$port shows '$seen', not $transcript"
}
step "game $GAME: made on web$P1, a move through each instance, seen on the other"
move "$P2" f5 0
sees "$P1" f5
move "$P1" d6 1
sees "$P2" f5d6
owner=$(psql_admin "SELECT instance FROM game_leases WHERE game_id = '$GAME'" virada)
[ "$owner" = "web$P1" ] || fail "the game's lease is held by '$owner', not web$P1"

# ---------- 7. stopping ----------
STOP_SECONDS=$(grep -o '^TimeoutStopSec=[0-9]*' "$DOC" | head -n 1 | cut -d= -f2)
[ -n "$STOP_SECONDS" ] || fail "$DOC's unit has no TimeoutStopSec"
step "SIGTERM to each, the second instance first (the unit's KillSignal): each exits 0 within ${STOP_SECONDS} s"
# One after the other, as a rolling restart stops them: stopped at the same moment, the follower
# may take over the lease the owner has just released and stop before releasing it (it lapses
# after 3 s; the next start takes it over).
for i in 1 0; do
  pid=${PIDS[$i]}
  kill -TERM "$pid"
  for _ in $(seq 1 $(( STOP_SECONDS * 10 ))); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -0 "$pid" 2>/dev/null && fail "web${PORTS[$i]} still runs ${STOP_SECONDS} s after SIGTERM"
  status=0
  wait "$pid" || status=$?
  [ "$status" -eq 0 ] || fail "web${PORTS[$i]} exited with status $status"
done
PIDS=()
leases=$(psql_admin "SELECT count(*) FROM game_leases" virada)
[ "$leases" = 0 ] || fail "$leases game leases left after a clean stop"
step "passed (DEPLOY.md followed: OS user, role with a SCRAM password, database, encoded URL, migrations, two instances, health, a move across, clean stop)"
