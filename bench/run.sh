#!/usr/bin/env bash
# Floe against Iceberg's reference REST catalog server, side by side in one run on one machine.
#
# Starts one PostgreSQL from Debian's packages with two databases, Floe (`floe serve
# --database-url`) on one and Iceberg's RESTCatalogServer (iceberg-open-api 1.11.0 test fixtures,
# JdbcCatalog, local files) on the other, drives both with the same wrk client, measures Floe on
# its embedded default too, and writes docs/benchmarks.md with a chart (docs/benchmarks.png).
# Everything it starts is stopped on exit; scratch files live in one temporary directory.
#
#   bash bench/run.sh            # the full run (about 15 minutes on two cores)
#   bash bench/run.sh --quick    # short runs, no 100k listing: for trying changes out
#
# Installs what it lacks: Debian's postgresql and wrk (apt-get, as root), and matplotlib in a
# virtualenv of its own, bench/.venv (git-ignored, reused by later runs).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH="$ROOT/bench"

usage() {
  cat <<'USAGE'
Usage: bash bench/run.sh [--quick] [--rounds N] [--no-build] [--keep-work] [--output DIR]

  --quick       5-second runs and no 100k-table listing (for iterating; numbers are rough)
  --no-build    use the existing bootstrap/target/floe.jar instead of building it
  --rounds N    run each measurement N times per server, alternating between the servers,
                and report each server's best round (default 3; 1 with --quick)
  --keep-work   keep the scratch directory (server logs, raw wrk reports) after the run
  --output DIR  write benchmarks.md and benchmarks.png to DIR instead of docs/
USAGE
}

QUICK=false
ROUNDS_OPTION=""
BUILD=true
KEEP_WORK=false
OUTPUT_DIR="$ROOT/docs"
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) QUICK=true ;;
    --no-build) BUILD=false ;;
    --keep-work) KEEP_WORK=true ;;
    --rounds) ROUNDS_OPTION="$2"; shift ;;
    --output) OUTPUT_DIR="$(mkdir -p "$2" && cd "$2" && pwd)"; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
  esac
  shift
done
cd "$ROOT"   # --output was resolved from the caller's directory; the rest is the repository's

# --- what is measured, and for how long -------------------------------------------------------

if $QUICK; then
  WARMUP_SECONDS=3; LOAD_SECONDS=5; OP_SECONDS=5; LIST_SECONDS=3
  LIST_SIZES=(1000 10000)
  ROUNDS="${ROUNDS_OPTION:-1}"
else
  # A minute of warm-up: until then the JIT still compiles the request path (a third of Floe's
  # CPU after 20 s of loads), and a server is judged in the steady state it runs in for weeks.
  WARMUP_SECONDS=60; LOAD_SECONDS=10; OP_SECONDS=8; LIST_SECONDS=5
  LIST_SIZES=(1000 10000 100000)
  ROUNDS="${ROUNDS_OPTION:-3}"
fi
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || { usage >&2; exit 2; }
LOAD_THREADS=2; LOAD_CONNECTIONS=16   # the issue's hot-path setting: wrk -t2 -c16
COMMITTERS=16                         # concurrent committers, one table each
PAGE_SIZE=100                         # list-tables page size, first and last page
WRK_TIMEOUT=10s
ORG=bench-org                         # Floe's warehouse (org); the reference has no prefix

WORK="$(mktemp -d "${TMPDIR:-/tmp}/floe-bench.XXXXXX")"
chmod 755 "$WORK"                     # the postgres user reaches its data directory below it
RESULTS="$WORK/results"               # one wrk JSON report per server and measurement
FACTS="$WORK/facts.tsv"               # machine and run facts, key<TAB>value
mkdir -p "$RESULTS"
: > "$FACTS"

PG_BIN=""
PG_PORT=""
PGDATA="$WORK/postgres/data"
STARTED_PIDS=()                       # Java servers started here, stopped on exit
TOKEN="ema_$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')"
AUTH="Authorization: Bearer $TOKEN"

log() { printf '[bench %s] %s\n' "$(date +%H:%M:%S)" "$*"; }
fail() { printf '[bench] error: %s\n' "$*" >&2; exit 1; }
fact() { printf '%s\t%s\n' "$1" "$2" >> "$FACTS"; }

as_postgres() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# --- cleanup: every process started here is stopped, the scratch directory removed ------------

stop_pid() {
  local pid="$1" waited=0
  kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  while kill -0 "$pid" 2>/dev/null && [ "$waited" -lt 60 ]; do
    sleep 0.5; waited=$((waited + 1))
  done
  if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null || true; fi
  wait "$pid" 2>/dev/null || true
}

# A postmaster whose data directory lies in the scratch directory (the embedded PostgreSQL of a
# Floe that did not stop cleanly) is stopped by the pid in its postmaster.pid.
stop_stray_postmasters() {
  local pidfile pid
  while IFS= read -r pidfile; do
    pid="$(head -n 1 "$pidfile" 2>/dev/null || true)"
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
      log "stopping a PostgreSQL left behind (pid $pid)"
      stop_pid "$pid"
    fi
  done < <(find "$WORK" -name postmaster.pid -not -path "$PGDATA/*" 2>/dev/null)
}

cleanup() {
  local status=$?
  set +e
  for pid in "${STARTED_PIDS[@]}"; do stop_pid "$pid"; done
  stop_stray_postmasters
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

apt_install() {
  [ "$(id -u)" = 0 ] || fail "missing $*; run as root or apt-get install $*"
  log "installing $* from Debian's packages"
  if [ -z "${APT_UPDATED:-}" ]; then apt-get update -qq; APT_UPDATED=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

ensure_tools() {
  local missing=()
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
  command -v wrk >/dev/null 2>&1 || missing+=(wrk)
  command -v curl >/dev/null 2>&1 || missing+=(curl)
  python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || missing+=(python3-venv)
  if [ "${#missing[@]}" -gt 0 ]; then apt_install "${missing[@]}"; fi
  command -v java >/dev/null 2>&1 || fail "Java 17 is required"
  command -v mvn >/dev/null 2>&1 || fail "Maven is required"
  PG_BIN="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"
}

# matplotlib for the chart, pinned in bench/requirements.txt, in bench/.venv.
ensure_plotting() {
  local venv="$BENCH/.venv" stamp="$BENCH/.venv/.requirements.sha256" wanted
  wanted="$(sha256sum "$BENCH/requirements.txt" | cut -d' ' -f1)"
  if [ -x "$venv/bin/python" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$wanted" ]; then return; fi
  log "virtualenv bench/.venv with matplotlib"
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$BENCH/requirements.txt"
  echo "$wanted" > "$stamp"
}

# --- PostgreSQL: one server, a database for Floe and one for the reference ---------------------

start_postgres() {
  PG_PORT="$(free_port)"
  mkdir -p "$PGDATA"
  echo bench > "$WORK/postgres/pwfile"
  if [ "$(id -u)" = 0 ]; then chown -R postgres "$WORK/postgres"; fi
  as_postgres "$PG_BIN/initdb" -D "$PGDATA" --username=postgres --pwfile="$WORK/postgres/pwfile" \
    --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  as_postgres "$PG_BIN/pg_ctl" -D "$PGDATA" -l "$WORK/postgres/postgres.log" -w \
    -o "-p $PG_PORT -k $PGDATA -c listen_addresses=127.0.0.1" start >/dev/null
  psql_admin postgres -c "create role bench login password 'bench'"
  psql_admin postgres -c "create database floe owner bench"
  psql_admin postgres -c "create database reference owner bench"
  fact postgres "$("$PG_BIN/postgres" --version | sed 's/^postgres (PostgreSQL) //')"
  log "PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PG_PORT" \
    "(databases floe, reference)"
}

psql_admin() {
  local database="$1"; shift
  as_postgres "$PG_BIN/psql" -h "$PGDATA" -p "$PG_PORT" -U postgres -d "$database" \
    -v ON_ERROR_STOP=1 -qAt "$@"
}

# --- the two servers --------------------------------------------------------------------------

build_floe() {
  if $BUILD; then
    log "building Floe (mvn -B -q -DskipTests package)"
    mvn -B -q -DskipTests package
  fi
  [ -f bootstrap/target/floe.jar ] || fail "bootstrap/target/floe.jar is missing (drop --no-build)"
}

build_reference_classpath() {
  log "resolving the reference server's classpath (bench/reference/pom.xml)"
  mvn -B -q -f "$BENCH/reference/pom.xml" dependency:build-classpath \
    -Dmdep.outputFile="$WORK/reference.classpath" >/dev/null
}

# Waits until GET $1 answers 200 (with the token), or fails with the log of the process $2.
wait_until_serving() {
  local url="$1" pid="$2" logfile="$3" tries=0
  until [ "$(curl -s -o /dev/null -w '%{http_code}' -H "$AUTH" "$url")" = 200 ]; do
    if ! kill -0 "$pid" 2>/dev/null || [ "$tries" -ge 240 ]; then
      tail -n 40 "$logfile" >&2
      fail "server for $url did not start"
    fi
    sleep 0.5; tries=$((tries + 1))
  done
}

# start_floe NAME [serve options...]: starts Floe; sets FLOE_PID and FLOE_BASE (catalog prefix URL).
start_floe() {
  local name="$1"; shift
  local port; port="$(free_port)"
  # As the README starts it: the floe script, with the server's JVM options.
  ./floe serve --port "$port" --org "$ORG" \
    --data-dir "$WORK/$name-data" --bootstrap-token "$TOKEN" "$@" > "$WORK/$name.log" 2>&1 &
  FLOE_PID=$!
  STARTED_PIDS+=("$FLOE_PID")
  wait_until_serving "http://127.0.0.1:$port/iceberg/v1/config?warehouse=$ORG" "$FLOE_PID" \
    "$WORK/$name.log"
  FLOE_BASE="http://127.0.0.1:$port/iceberg/v1/$ORG"
  log "$name serving on 127.0.0.1:$port (pid $FLOE_PID)"
}

# Iceberg's RESTCatalogServer reads its catalog properties from CATALOG_* variables (RCKUtils:
# strip the prefix, "__" becomes "-", "_" becomes ".", lower case). Sets REF_PID and REF_BASE.
start_reference() {
  local port; port="$(free_port)"
  mkdir -p "$WORK/reference-warehouse"
  env CATALOG_CATALOG__IMPL=org.apache.iceberg.jdbc.JdbcCatalog \
      CATALOG_URI="jdbc:postgresql://127.0.0.1:$PG_PORT/reference" \
      CATALOG_JDBC_USER=bench CATALOG_JDBC_PASSWORD=bench \
      CATALOG_WAREHOUSE="$WORK/reference-warehouse" \
      CATALOG_REST_PORT="$port" \
    java -cp "$(cat "$WORK/reference.classpath")" org.apache.iceberg.rest.RESTCatalogServer \
    > "$WORK/reference.log" 2>&1 &
  REF_PID=$!
  STARTED_PIDS+=("$REF_PID")
  wait_until_serving "http://127.0.0.1:$port/v1/config" "$REF_PID" "$WORK/reference.log"
  REF_BASE="http://127.0.0.1:$port/v1"
  log "reference serving on 127.0.0.1:$port (pid $REF_PID)"
}

# --- REST calls to set the stage --------------------------------------------------------------

# api METHOD URL [BODY]: the same token for both servers (the reference ignores it); fails
# unless the answer is 2xx.
api() {
  local method="$1" url="$2" body="${3:-}" code
  code="$(curl -sS -o "$WORK/api.out" -w '%{http_code}' -X "$method" -H "$AUTH" \
    -H 'Content-Type: application/json' ${body:+--data "$body"} "$url")"
  case "$code" in
    2??) ;;
    *) cat "$WORK/api.out" >&2; fail "$method $url answered $code" ;;
  esac
}

TABLE_SCHEMA='{"type": "struct", "schema-id": 0, "fields": [
  {"id": 1, "name": "id", "required": true, "type": "long"},
  {"id": 2, "name": "value", "required": false, "type": "string"}]}'

create_namespace() { api POST "$1/namespaces" "{\"namespace\": [\"$2\"]}"; }
create_table() {
  api POST "$1/namespaces/$2/tables" "{\"name\": \"$3\", \"schema\": $TABLE_SCHEMA}"
}

# Namespaces and tables every measurement needs, the same on both servers.
prepare_catalog() {
  local base="$1" i
  create_namespace "$base" hot;        create_table "$base" hot t
  create_namespace "$base" creates
  create_namespace "$base" sequential; create_table "$base" sequential c01
  create_namespace "$base" concurrent
  for i in $(seq -f '%02g' 1 "$COMMITTERS"); do create_table "$base" concurrent "c$i"; done
}

# --- listing at scale: N tables in one namespace, seeded in SQL --------------------------------
#
# One real table, t000000, is created through the API; then N-1 more rows are cloned from its
# row in SQL (every column copied through jsonb, so columns added later come along), named
# t000001 ... and pointing at t000000's real metadata file. Floe's clones also get their own
# storage prefix claims, as tables created through the API have.

seed_floe_tables() {
  local namespace="$1" count="$2"
  psql_admin floe -v ns="$namespace" -v n="$count" <<'SQL' >/dev/null
with seed as (
  select o.* from catalog_objects o join namespaces ns on ns.id = o.namespace_id
  where ns.name = :'ns' and ns.deleted_at is null and o.name = 't000000'),
clones as (
  insert into catalog_objects
  select (jsonb_populate_record(null::catalog_objects, to_jsonb(seed) || jsonb_build_object(
    'id', gen_random_uuid(),
    'name', 't' || lpad(i::text, 6, '0'),
    'location', seed.location || '-' || i))).*
  from seed cross join generate_series(1, :n - 1) i
  returning id, location)
insert into prefix_claims
select (jsonb_populate_record(null::prefix_claims, to_jsonb(claim) || jsonb_build_object(
  'owner_id', clones.id,
  'prefix', claim.prefix || substr(clones.location, length(seed.location) + 1)))).*
from seed join prefix_claims claim on claim.owner_id = seed.id cross join clones;
analyze catalog_objects;
analyze prefix_claims;
SQL
  local seeded
  seeded="$(psql_admin floe -v ns="$namespace" <<'SQL'
select count(*) from catalog_objects o join namespaces ns on ns.id = o.namespace_id
where ns.name = :'ns' and ns.deleted_at is null;
SQL
)"
  [ "$seeded" = "$count" ] || fail "Floe namespace $namespace has $seeded tables, not $count"
}

seed_reference_tables() {
  local namespace="$1" count="$2"
  psql_admin reference -v ns="$namespace" -v n="$count" <<'SQL' >/dev/null
insert into iceberg_tables
select (jsonb_populate_record(null::iceberg_tables, to_jsonb(seed) || jsonb_build_object(
  'table_name', 't' || lpad(i::text, 6, '0')))).*
from iceberg_tables seed cross join generate_series(1, :n - 1) i
where seed.table_namespace = :'ns' and seed.table_name = 't000000';
analyze iceberg_tables;
SQL
  local seeded
  seeded="$(psql_admin reference -v ns="$namespace" <<'SQL'
select count(*) from iceberg_tables where table_namespace = :'ns';
SQL
)"
  [ "$seeded" = "$count" ] || fail "reference namespace $namespace has $seeded tables, not $count"
}

seed_listings() {
  local size
  for size in "${LIST_SIZES[@]}"; do
    log "seeding list_$size: $size tables on each server"
    create_namespace "$FLOE_BASE" "list_$size"; create_table "$FLOE_BASE" "list_$size" t000000
    create_namespace "$REF_BASE" "list_$size";  create_table "$REF_BASE" "list_$size" t000000
    seed_floe_tables "list_$size" "$size"
    seed_reference_tables "list_$size" "$size"
  done
}

# --- measuring --------------------------------------------------------------------------------
#
# Each measurement runs in ROUNDS rounds, alternating between the servers (Floe, reference, Floe,
# ...), so that other work on the machine falls on both alike; the report takes each server's
# best round, since outside work only ever slows a server down.

ROUND=1

# measure SERVER MEASUREMENT THREADS CONNECTIONS SECONDS SCRIPT URL [wrk options...]
# Runs wrk once and keeps its JSON report as results/SERVER__MEASUREMENT__rROUND.json.
measure() {
  local server="$1" measurement="$2" threads="$3" connections="$4" seconds="$5" script="$6" url="$7"
  shift 7
  local name="${server}__${measurement}__r${ROUND}"
  local report="$RESULTS/$name.json" output="$WORK/wrk-$name.txt"
  rm -f "$report"
  fact "load_$name" "$(cut -d' ' -f1 /proc/loadavg)"
  { BENCH_ROUND="$ROUND" WRK_REPORT="$report" wrk -t"$threads" -c"$connections" \
      -d"${seconds}s" --timeout "$WRK_TIMEOUT" -s "$BENCH/wrk/$script" -H "$AUTH" "$@" "$url" \
      > "$output" 2>&1 && [ -s "$report" ]; } ||
    { cat "$output" >&2; fail "wrk failed for $server $measurement"; }
  # One line of progress; a run in which no request succeeded means the setup is broken.
  python3 - "$report" "$server" "$measurement" "$ROUND" <<'PY' || fail "$name: see $output"
import json, sys
r = json.load(open(sys.argv[1]))
seconds = r["duration_us"] / 1e6
errors = sum(r["errors"].values())
print(f"[bench]   {sys.argv[2]:<14} {sys.argv[3]:<18} r{sys.argv[4]}"
      f" {r['requests'] / seconds:9.1f} req/s"
      f"  p50 {r['latency_us']['p50'] / 1000:8.2f} ms  p99 {r['latency_us']['p99'] / 1000:8.2f} ms"
      f"  errors {errors}  {r['statuses'] or ''}")
if r["requests"] == 0 or errors >= r["requests"]:
    sys.exit(f"no request succeeded: {r}")
PY
}

# in_rounds MEASUREMENT: runs `MEASUREMENT SERVER BASE-URL` on Floe and on the reference, in turn,
# ROUNDS times.
in_rounds() {
  local measurement="$1"
  for ROUND in $(seq 1 "$ROUNDS"); do
    "$measurement" floe "$FLOE_BASE"
    "$measurement" reference "$REF_BASE"
  done
}

warm_up() {
  local base="$1"
  WRK_REPORT=/dev/null wrk -t"$LOAD_THREADS" -c"$LOAD_CONNECTIONS" -d"${WARMUP_SECONDS}s" \
    -s "$BENCH/wrk/load.lua" -H "$AUTH" "$base/namespaces/hot/tables/t" >/dev/null
  WRK_REPORT=/dev/null wrk -t1 -c1 -d"$((WARMUP_SECONDS / 2 + 1))s" \
    -s "$BENCH/wrk/commit.lua" -H "$AUTH" "$base/namespaces/sequential/tables/" >/dev/null
}

etag_of() {
  curl -sS -D - -o /dev/null -H "$AUTH" "$1" | tr -d '\r' |
    awk 'tolower($1) == "etag:" { sub(/^[^:]*: */, ""); print }'
}

hot_load() {
  local server="$1" base="$2"
  measure "$server" load_hot "$LOAD_THREADS" "$LOAD_CONNECTIONS" "$LOAD_SECONDS" load.lua \
    "$base/namespaces/hot/tables/t"
}

conditional_load() {
  local server="$1" base="$2" url="$2/namespaces/hot/tables/t" etag
  etag="$(etag_of "$url")"
  [ "$ROUND" != 1 ] || fact "etag_$server" "${etag:-none}"
  # Without an ETag to send back, a client would send whatever it has: any value does.
  measure "$server" load_conditional "$LOAD_THREADS" "$LOAD_CONNECTIONS" "$LOAD_SECONDS" \
    conditional.lua "$url" -H "If-None-Match: ${etag:-\"none\"}"
}

sequential_create() {
  measure "$1" create_sequential 1 1 "$OP_SECONDS" create.lua "$2/namespaces/creates/tables"
}

sequential_commit() {
  measure "$1" commit_sequential 1 1 "$OP_SECONDS" commit.lua "$2/namespaces/sequential/tables/"
}

concurrent_commits() {
  measure "$1" commit_concurrent "$COMMITTERS" "$COMMITTERS" "$OP_SECONDS" commit.lua \
    "$2/namespaces/concurrent/tables/"
}

# The URL of the last page of PAGE_SIZE tables, found by following the server's own
# next-page-tokens (never by building one), in pages as large as the server serves: Floe caps a
# page at 1,000 tables, the reference does not cap.
last_page_url() {
  local server="$1" url="$2" total="$3" cap=1000000
  [ "$server" != floe ] || cap=1000
  python3 "$BENCH/last_page.py" --token "$TOKEN" --page-size "$PAGE_SIZE" --total "$total" \
    --cap "$cap" "$url"
}

listing() {
  local server="$1" base="$2" size url
  for size in "${LIST_SIZES[@]}"; do
    url="$base/namespaces/list_$size/tables?pageSize=$PAGE_SIZE"
    measure "$server" "list_${size}_first" 1 1 "$LIST_SECONDS" load.lua "$url"
    url="$(last_page_url "$server" "$url" "$size")" || fail "no last page for $server list_$size"
    measure "$server" "list_${size}_last" 1 1 "$LIST_SECONDS" load.lua "$url"
  done
}

# Peak resident set size (VmHWM) of a process, in KiB.
record_peak_rss() {
  local server="$1" pid="$2"
  fact "rss_peak_kib_$server" "$(awk '/^VmHWM:/ {print $2}' "/proc/$pid/status")"
  fact "rss_now_kib_$server" "$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status")"
}

# --- facts about the machine and the run --------------------------------------------------------

record_facts() {
  fact date "$(date -u '+%Y-%m-%d %H:%M UTC')"
  local changes=""
  git diff --quiet HEAD -- . ':!docs' 2>/dev/null || changes=" (with local changes)"
  fact commit "$(git rev-parse --short HEAD)$changes"
  fact cores "$(nproc)"
  fact cpu "$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo)"
  fact memory_kib "$(awk '/^MemTotal:/ {print $2}' /proc/meminfo)"
  fact kernel "$(uname -sr)"
  fact os "$(. /etc/os-release && echo "$PRETTY_NAME")"
  fact java "$(java -version 2>&1 | head -n 1)"
  fact wrk "$(wrk -v 2>&1 | head -n 1 | awk '{print $1, $2}')"
  fact quick "$QUICK"
  fact durations "$(printf 'warm-up %ss; per round: loads %ss, writes %ss, list pages %ss' \
    "$WARMUP_SECONDS" "$LOAD_SECONDS" "$OP_SECONDS" "$LIST_SECONDS")"
  fact rounds "$ROUNDS"
  fact list_sizes "${LIST_SIZES[*]}"
  fact page_size "$PAGE_SIZE"
  fact committers "$COMMITTERS"
  fact load_setting "wrk -t$LOAD_THREADS -c$LOAD_CONNECTIONS"
}

load_average() { cut -d' ' -f1-3 /proc/loadavg; }

# Waits (at most 90 s) for the load average to fall below the core count, so that the build this
# script just ran does not count as other work; what remains after that is other work indeed.
settle() {
  local cores deadline=$((SECONDS + 90))
  cores=$(nproc)
  while (( SECONDS < deadline )) \
      && awk -v l="$(cut -d' ' -f1 /proc/loadavg)" -v c="$cores" 'BEGIN { exit !(l >= c) }'; do
    sleep 5
  done
}

write_report() {
  log "writing $OUTPUT_DIR/benchmarks.md and benchmarks.png"
  mkdir -p "$OUTPUT_DIR"
  "$BENCH/.venv/bin/python" "$BENCH/report.py" --results "$RESULTS" --facts "$FACTS" \
    --output "$OUTPUT_DIR"
}

# --- the run ----------------------------------------------------------------------------------

main() {
  log "scratch directory $WORK$($QUICK && echo ' (quick run)')"
  ensure_tools
  ensure_plotting
  build_floe
  build_reference_classpath
  start_postgres
  record_facts
  settle
  fact load_start "$(load_average)"
  log "load average at start: $(load_average)"

  start_floe floe --database-url "jdbc:postgresql://127.0.0.1:$PG_PORT/floe" \
    --database-user bench --database-password bench
  local floe_pid="$FLOE_PID"
  start_reference
  prepare_catalog "$FLOE_BASE"
  prepare_catalog "$REF_BASE"
  seed_listings

  log "warming up both servers (${WARMUP_SECONDS}s of loads and commits each)"
  warm_up "$FLOE_BASE"
  warm_up "$REF_BASE"

  log "loadTable, hot"
  in_rounds hot_load
  log "loadTable with If-None-Match"
  in_rounds conditional_load
  log "createTable, one client"
  in_rounds sequential_create
  log "commits, one client"
  in_rounds sequential_commit
  log "commits, $COMMITTERS clients on as many tables"
  in_rounds concurrent_commits
  log "list-tables, first and last page of $PAGE_SIZE"
  in_rounds listing
  record_peak_rss floe "$floe_pid"
  record_peak_rss reference "$REF_PID"
  stop_pid "$REF_PID"

  # Alone on its database Floe keeps tables' pointers in memory; with a second replica every
  # load reads its pointer from PostgreSQL. The same server, measured again that way.
  log "Floe with a second replica on its database: hot loadTable"
  local floe_base="$FLOE_BASE"
  start_floe floe-second --database-url "jdbc:postgresql://127.0.0.1:$PG_PORT/floe" \
    --database-user bench --database-password bench \
    --secret-key-file "$WORK/floe-data/secret.key"
  local second_pid="$FLOE_PID"
  fact sole_with_second "$(curl -s "${floe_base%/iceberg/*}/metrics" |
    awk '/^floe_replica_sole / {print $2}')"
  WRK_REPORT=/dev/null wrk -t"$LOAD_THREADS" -c"$LOAD_CONNECTIONS" \
    -d"$((WARMUP_SECONDS / 3 + 1))s" -s "$BENCH/wrk/load.lua" -H "$AUTH" \
    "$floe_base/namespaces/hot/tables/t" >/dev/null
  for ROUND in $(seq 1 "$ROUNDS"); do hot_load floe-replicas "$floe_base"; done
  stop_pid "$second_pid"
  stop_pid "$floe_pid"

  log "Floe on its embedded PostgreSQL: hot loadTable"
  start_floe floe-embedded
  create_namespace "$FLOE_BASE" hot; create_table "$FLOE_BASE" hot t
  create_namespace "$FLOE_BASE" sequential; create_table "$FLOE_BASE" sequential c01
  warm_up "$FLOE_BASE"
  for ROUND in $(seq 1 "$ROUNDS"); do hot_load floe-embedded "$FLOE_BASE"; done
  record_peak_rss floe-embedded "$FLOE_PID"
  stop_pid "$FLOE_PID"

  fact load_end "$(load_average)"
  log "load average at end: $(load_average)"
  write_report
  log "done"
}

main
