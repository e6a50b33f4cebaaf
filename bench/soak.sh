#!/usr/bin/env bash
# The soak run: Floe from its jar on a PostgreSQL this script can restart, normal clients
# (creates, commits, multi-table transactions, loads, listings) mixed with hostile ones (slow
# bodies, deep schemas, bad tokens, malformed bodies, fuzzed paths, remote-signer abuse), and
# PostgreSQL restarted twice while they run (a fast shutdown, then an immediate one, as in a
# crash). At the end it checks that the server is healthy, that no request got a 5xx other than a
# 503 during a restart, and that every acknowledged commit is in its table; it prints a summary
# and exits non-zero when any of that fails. Everything runs on loopback and stops by itself.
# Not part of the test command (a shorter run of the same driver is: SoakIT).
#
#   bash bench/soak.sh                 # ten minutes
#   bash bench/soak.sh --minutes 2     # shorter
#
# Needs Java 17, Maven, python3 and Debian's postgresql (installed with apt-get when run as root).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

usage() {
  cat <<'USAGE'
Usage: bash bench/soak.sh [--minutes N] [--clients N] [--restarts N] [--without KINDS]
                          [--no-build] [--keep-work]

  --minutes N      how long the traffic runs (default 10)
  --clients N      normal clients, each with tables of its own (default 4)
  --restarts N     restarts of PostgreSQL, evenly spread (default 2: fast, then immediate)
  --without KINDS  hostile kinds to leave out, comma-separated: slow-bodies, deep-schemas,
                   bad-tokens, malformed-bodies, fuzzed-paths, signer
  --no-build       use the existing bootstrap/target/floe.jar
  --keep-work      keep the scratch directory (server and PostgreSQL logs, findings)
USAGE
}

MINUTES=10
CLIENTS=4
RESTARTS=2
WITHOUT=""
BUILD=true
KEEP_WORK=false
while [ $# -gt 0 ]; do
  case "$1" in
    --minutes) MINUTES="$2"; shift ;;
    --clients) CLIENTS="$2"; shift ;;
    --restarts) RESTARTS="$2"; shift ;;
    --without) WITHOUT="$2"; shift ;;
    --no-build) BUILD=false ;;
    --keep-work) KEEP_WORK=true ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
  esac
  shift
done
[[ "$MINUTES" =~ ^[0-9]+([.][0-9]+)?$ ]] || { usage >&2; exit 2; }
cd "$ROOT"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/floe-soak.XXXXXX")"
chmod 755 "$WORK"                     # the postgres user reaches its data directory below it
PGDATA="$WORK/postgres/data"
PG_BIN=""
PG_PORT=""
FLOE_PID=""

log() { printf '[soak %s] %s\n' "$(date +%H:%M:%S)" "$*"; }
fail() { printf '[soak] error: %s\n' "$*" >&2; exit 1; }

as_postgres() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

cleanup() {
  local status=$?
  set +e
  if [ -n "$FLOE_PID" ] && kill -0 "$FLOE_PID" 2>/dev/null; then
    kill -TERM "$FLOE_PID"
    for _ in $(seq 60); do kill -0 "$FLOE_PID" 2>/dev/null || break; sleep 0.5; done
    kill -KILL "$FLOE_PID" 2>/dev/null
  fi
  if [ -n "$PG_BIN" ] && [ -f "$PGDATA/postmaster.pid" ]; then
    as_postgres "$PG_BIN/pg_ctl" -D "$PGDATA" -m fast -w stop >/dev/null 2>&1
  fi
  if $KEEP_WORK || [ "$status" != 0 ]; then
    log "scratch directory kept: $WORK"
  else
    rm -rf "$WORK"
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- tools ------------------------------------------------------------------------------------

if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  [ "$(id -u)" = 0 ] || fail "Debian's postgresql is missing; apt-get install postgresql"
  log "installing postgresql from Debian's packages"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi
PG_BIN="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"
command -v java >/dev/null 2>&1 || fail "Java 17 is required"
command -v python3 >/dev/null 2>&1 || fail "python3 is required"

if $BUILD; then
  command -v mvn >/dev/null 2>&1 || fail "Maven is required (or --no-build)"
  log "building the jar"
  # shellcheck disable=SC2086
  mvn -B -q -DskipTests ${MVN_ARGS:-} package >/dev/null
fi
[ -f bootstrap/target/floe.jar ] || fail "bootstrap/target/floe.jar is missing"

# --- PostgreSQL, restartable on its port -----------------------------------------------------

PG_PORT="$(free_port)"
mkdir -p "$PGDATA"
echo soak > "$WORK/postgres/pwfile"
if [ "$(id -u)" = 0 ]; then chown -R postgres "$WORK/postgres"; fi
as_postgres "$PG_BIN/initdb" -D "$PGDATA" --username=postgres --pwfile="$WORK/postgres/pwfile" \
  --auth-local=trust --auth-host=scram-sha-256 >/dev/null
as_postgres "$PG_BIN/pg_ctl" -D "$PGDATA" -l "$WORK/postgres/postgres.log" -w \
  -o "-p $PG_PORT -k $PGDATA -c listen_addresses=127.0.0.1" start >/dev/null
as_postgres "$PG_BIN/psql" -h "$PGDATA" -p "$PG_PORT" -U postgres -d postgres -v ON_ERROR_STOP=1 \
  -qAt -c "create role soak login password 'soak'" -c "create database floe owner soak"
log "PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PG_PORT"

# Restart number 1 is a fast shutdown (sessions ended, a checkpoint), later ones immediate ones
# (no checkpoint: the next start recovers from the write-ahead log, as after a crash).
cat > "$WORK/restart-postgres.sh" <<EOF
#!/usr/bin/env bash
set -e
mode=immediate
[ "\$1" = 1 ] && mode=fast
as_postgres() { if [ "\$(id -u)" = 0 ]; then runuser -u postgres -- "\$@"; else "\$@"; fi; }
as_postgres "$PG_BIN/pg_ctl" -D "$PGDATA" -l "$WORK/postgres/postgres.log" -m "\$mode" -w \
  -o "-p $PG_PORT -k $PGDATA -c listen_addresses=127.0.0.1" restart >/dev/null
EOF
chmod +x "$WORK/restart-postgres.sh"

# --- Floe, as the README starts it ------------------------------------------------------------

FLOE_PORT="$(free_port)"
./floe serve --port "$FLOE_PORT" --data-dir "$WORK/floe" \
  --database-url "jdbc:postgresql://127.0.0.1:$PG_PORT/floe" \
  --database-user soak --database-password soak > "$WORK/floe.log" 2>&1 &
FLOE_PID=$!
for _ in $(seq 240); do
  curl -sf "http://127.0.0.1:$FLOE_PORT/ready" >/dev/null 2>&1 && break
  kill -0 "$FLOE_PID" 2>/dev/null || { tail -n 30 "$WORK/floe.log" >&2; fail "Floe exited"; }
  sleep 0.5
done
curl -sf "http://127.0.0.1:$FLOE_PORT/ready" >/dev/null || fail "Floe did not become ready"
log "Floe on 127.0.0.1:$FLOE_PORT (pid $FLOE_PID), log in $WORK/floe.log"

# --- the run ----------------------------------------------------------------------------------

set +e
python3 bench/soak.py --url "http://127.0.0.1:$FLOE_PORT" --org my-org \
  --token "$(cat "$WORK/floe/admin.token")" --seconds "$(python3 -c "print($MINUTES * 60)")" \
  --clients "$CLIENTS" --restarts "$RESTARTS" --without "$WITHOUT" \
  --restart-command "$WORK/restart-postgres.sh" --findings "$WORK/findings.jsonl"
verdict=$?
set -e

alive=true
kill -0 "$FLOE_PID" 2>/dev/null || alive=false
errors="$(grep -c -E 'OutOfMemoryError|Exception in thread' "$WORK/floe.log" || true)"
echo
echo "server process: $($alive && echo "running" || echo "GONE"); errors in its log" \
  "(OutOfMemoryError, uncaught in a thread): $errors"
if ! $alive || [ "$errors" != 0 ] || [ "$verdict" != 0 ]; then
  log "findings: $WORK/findings.jsonl, server log: $WORK/floe.log"
  exit 1
fi
