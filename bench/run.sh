#!/usr/bin/env bash
# Floe against Iceberg's reference REST catalog server and Project Nessie, side by side in one run
# on one machine, driven by the same client.
#
# Starts one PostgreSQL from Debian's packages with a database per server: Floe (`floe serve
# --database-url`), Iceberg's RESTCatalogServer (iceberg-open-api 1.11.0 test fixtures, JdbcCatalog,
# local files), Nessie 0.99 (`nessie-quarkus` runner jar from Maven Central, on the Temurin 25 JDK)
# with its JDBC version store and with its in-memory one, its files on an S3 stand-in (moto). Apache
# Polaris publishes no runnable server among the artifacts Maven Central serves, so it is not
# measured. Measures each server in turn (see report.py for the list), then Floe on one of two
# replicas, the static-file ceiling (nginx from Debian serving the bytes of Floe's hot load), Floe
# on its embedded PostgreSQL, and Icechunk commits on S3 against Python icechunk; writes
# docs/benchmarks.md with a chart (docs/benchmarks.png). Everything it starts is stopped on exit;
# scratch files live in one temporary directory.
#
#   bash bench/run.sh            # the full run (about an hour on two cores)
#   bash bench/run.sh --quick    # short runs, no 100k listing: for trying changes out
#
# Installs what it lacks: Debian's postgresql, wrk and nginx (apt-get, as root), matplotlib in a
# virtualenv of its own, bench/.venv (git-ignored, reused by later runs), Nessie's jar through
# Maven. Needs moto and icechunk in the project's Python (.venv, or FLOE_PYTHON).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH="$ROOT/bench"

usage() {
  cat <<'USAGE'
Usage: bash bench/run.sh [--quick] [--rounds N] [--no-build] [--keep-work] [--output DIR]

  --quick       5-second runs and no 100k-table listing (for iterating; numbers are rough)
  --no-build    use the existing bootstrap/target/floe.jar instead of building it
  --rounds N    run each measurement N times per server, taking turns between the servers,
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
  ICECHUNK_ROUNDS=3
else
  # A minute of warm-up: until then the JIT still compiles the request path (a third of Floe's
  # CPU after 20 s of loads), and a server is judged in the steady state it runs in for weeks.
  WARMUP_SECONDS=60; LOAD_SECONDS=10; OP_SECONDS=8; LIST_SECONDS=5
  LIST_SIZES=(1000 10000 100000)
  ROUNDS="${ROUNDS_OPTION:-3}"
  ICECHUNK_ROUNDS=10
fi
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || { usage >&2; exit 2; }
LOAD_THREADS=2; LOAD_CONNECTIONS=16   # the hot-path setting: wrk -t2 -c16
COMMITTERS=16                         # concurrent committers, one table each
APPENDERS=16                          # concurrent appenders, all on one table
BIG_SNAPSHOTS=5000                    # snapshots of each of the 16 big tables
ICECHUNK_CHUNKS=100                   # chunks per Icechunk commit round on S3
PAGE_SIZE=100                         # list-tables page size, first and last page
WRK_TIMEOUT=10s
ORG=bench-org                         # Floe's warehouse (org); the reference has no prefix
NESSIE_VERSION=0.99.0
NESSIE_JAVA="${NESSIE_JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}"
PYTHON="${FLOE_PYTHON:-$ROOT/.venv/bin/python}"
# Every server measured in turn; the first is Floe, the second the reference every ratio uses.
SERVERS=(floe reference nessie-jdbc nessie-memory)

WORK="$(mktemp -d "${TMPDIR:-/tmp}/floe-bench.XXXXXX")"
chmod 755 "$WORK"                     # the postgres and nginx users reach files below it
RESULTS="$WORK/results"               # one wrk JSON report per server and measurement
FACTS="$WORK/facts.tsv"               # machine and run facts, key<TAB>value
mkdir -p "$RESULTS"
: > "$FACTS"

PG_BIN=""
PG_PORT=""
PGDATA="$WORK/postgres/data"
STARTED_PIDS=()                       # servers started here, stopped on exit
TOKEN="ema_$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')"
AUTH="Authorization: Bearer $TOKEN"
declare -A BASE                       # server -> its catalog prefix URL (.../v1[/prefix])
declare -A PID_OF                     # server -> its process id
declare -A CLIENT_PROPERTIES          # server -> Iceberg REST client properties (key=value ...)
MOTO_ENDPOINT=""

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
  [ -x /usr/sbin/nginx ] || missing+=(nginx-light)
  python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || missing+=(python3-venv)
  if [ "${#missing[@]}" -gt 0 ]; then apt_install "${missing[@]}"; fi
  command -v java >/dev/null 2>&1 || fail "Java 17 is required"
  command -v mvn >/dev/null 2>&1 || fail "Maven is required"
  [ -x "$NESSIE_JAVA" ] || fail "Nessie needs Java 21 or later: set NESSIE_JAVA (now $NESSIE_JAVA)"
  "$PYTHON" -c 'import moto, icechunk' 2>/dev/null ||
    fail "$PYTHON lacks moto or icechunk (set FLOE_PYTHON to a Python that has both)"
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

# --- PostgreSQL: one server, a database per catalog server -------------------------------------

start_postgres() {
  PG_PORT="$(free_port)"
  mkdir -p "$PGDATA"
  echo bench > "$WORK/postgres/pwfile"
  if [ "$(id -u)" = 0 ]; then chown -R postgres "$WORK/postgres"; fi
  as_postgres "$PG_BIN/initdb" -D "$PGDATA" --username=postgres --pwfile="$WORK/postgres/pwfile" \
    --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  as_postgres "$PG_BIN/pg_ctl" -D "$PGDATA" -l "$WORK/postgres/postgres.log" -w \
    -o "-p $PG_PORT -k $PGDATA -c listen_addresses=127.0.0.1 -c max_connections=200" start >/dev/null
  psql_admin postgres -c "create role bench login password 'bench'"
  local database
  for database in floe reference nessie; do
    psql_admin postgres -c "create database $database owner bench"
  done
  fact postgres "$("$PG_BIN/postgres" --version | sed 's/^postgres (PostgreSQL) //')"
  log "PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PG_PORT" \
    "(databases floe, reference, nessie)"
}

psql_admin() {
  local database="$1"; shift
  as_postgres "$PG_BIN/psql" -h "$PGDATA" -p "$PG_PORT" -U postgres -d "$database" \
    -v ON_ERROR_STOP=1 -qAt "$@"
}

# --- the servers ------------------------------------------------------------------------------

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

# Nessie's server, the runner jar Maven Central serves, copied into bench/.cache (git-ignored).
NESSIE_JAR="$BENCH/.cache/nessie-quarkus-$NESSIE_VERSION-runner.jar"
fetch_nessie() {
  [ -f "$NESSIE_JAR" ] && return
  log "fetching org.projectnessie.nessie:nessie-quarkus:$NESSIE_VERSION:jar:runner"
  mvn -B -q -f "$BENCH/reference/pom.xml" dependency:copy \
    -Dartifact="org.projectnessie.nessie:nessie-quarkus:$NESSIE_VERSION:jar:runner" \
    -DoutputDirectory="$BENCH/.cache" >/dev/null
  [ -f "$NESSIE_JAR" ] || fail "Nessie's jar was not fetched"
}

# Waits until GET $1 answers 200 (with the token), or fails with the log of the process $2.
wait_until_serving() {
  local url="$1" pid="$2" logfile="$3" tries=0
  until [ "$(curl -s -o /dev/null -w '%{http_code}' -H "$AUTH" "$url")" = 200 ]; do
    if ! kill -0 "$pid" 2>/dev/null || [ "$tries" -ge 480 ]; then
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
  BASE[$name]="$FLOE_BASE"
  PID_OF[$name]="$FLOE_PID"
  CLIENT_PROPERTIES[$name]="warehouse=$ORG token=$TOKEN"
  log "$name serving on 127.0.0.1:$port (pid $FLOE_PID)"
}

floe_database_options() {
  echo --database-url "jdbc:postgresql://127.0.0.1:$PG_PORT/floe" \
    --database-user bench --database-password bench
}

# Iceberg's RESTCatalogServer reads its catalog properties from CATALOG_* variables (RCKUtils:
# strip the prefix, "__" becomes "-", "_" becomes ".", lower case).
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
  PID_OF[reference]=$!
  STARTED_PIDS+=("${PID_OF[reference]}")
  wait_until_serving "http://127.0.0.1:$port/v1/config" "${PID_OF[reference]}" \
    "$WORK/reference.log"
  BASE[reference]="http://127.0.0.1:$port/v1"
  CLIENT_PROPERTIES[reference]=""
  log "reference serving on 127.0.0.1:$port (pid ${PID_OF[reference]})"
}

# moto's S3 on loopback, a stand-in for the object store Nessie's catalog writes its files to
# (it serves no local files) and for the Icechunk measurement; it enforces conditional writes.
start_moto() {
  local port; port="$(free_port)"
  "$PYTHON" -m moto.server -H 127.0.0.1 -p "$port" > "$WORK/moto.log" 2>&1 &
  STARTED_PIDS+=("$!")
  MOTO_ENDPOINT="http://127.0.0.1:$port"
  local tries=0
  until curl -s -o /dev/null "$MOTO_ENDPOINT"; do
    [ "$tries" -lt 120 ] || fail "moto did not start"
    sleep 0.5; tries=$((tries + 1))
  done
  local bucket
  for bucket in nessie icechunk; do
    curl -sS -o /dev/null -X PUT "$MOTO_ENDPOINT/$bucket" || fail "no bucket $bucket on moto"
  done
  log "moto (S3) on $MOTO_ENDPOINT"
}

# start_nessie NAME STORE [-Dproperty=value...]: Nessie's Iceberg REST catalog (prefix main), with
# its warehouse in the bucket nessie on moto, authentication off (it ignores the token).
start_nessie() {
  local name="$1" store="$2"; shift 2
  local port management
  port="$(free_port)"; management="$(free_port)"
  "$NESSIE_JAVA" -Dquarkus.http.host=127.0.0.1 -Dquarkus.http.port="$port" \
    -Dquarkus.management.host=127.0.0.1 -Dquarkus.management.port="$management" \
    -Dnessie.version.store.type="$store" \
    -Dnessie.catalog.default-warehouse=warehouse \
    -Dnessie.catalog.warehouses.warehouse.location="s3://nessie/$name" \
    -Dnessie.catalog.service.s3.default-options.endpoint="$MOTO_ENDPOINT/" \
    -Dnessie.catalog.service.s3.default-options.path-style-access=true \
    -Dnessie.catalog.service.s3.default-options.region=us-east-1 \
    -Dnessie.catalog.service.s3.default-options.access-key=urn:nessie-secret:quarkus:bench.s3 \
    -Dbench.s3.name=bench -Dbench.s3.secret=bench \
    "$@" -jar "$NESSIE_JAR" > "$WORK/$name.log" 2>&1 &
  PID_OF[$name]=$!
  STARTED_PIDS+=("${PID_OF[$name]}")
  NESSIE_STARTING+=("$name:$port")
}

wait_for_nessies() {
  local entry name port
  for entry in "${NESSIE_STARTING[@]}"; do
    name="${entry%%:*}"; port="${entry##*:}"
    wait_until_serving "http://127.0.0.1:$port/iceberg/v1/config" "${PID_OF[$name]}" \
      "$WORK/$name.log"
    BASE[$name]="http://127.0.0.1:$port/iceberg/v1/main"
    CLIENT_PROPERTIES[$name]="s3.access-key-id=bench s3.secret-access-key=bench"
    log "$name serving on 127.0.0.1:$port (pid ${PID_OF[$name]})"
  done
}

start_servers() {
  NESSIE_STARTING=()
  start_nessie nessie-jdbc JDBC2 -Dnessie.version.store.persist.jdbc.datasource=postgresql \
    -Dquarkus.datasource.postgresql.jdbc.url="jdbc:postgresql://127.0.0.1:$PG_PORT/nessie" \
    -Dquarkus.datasource.postgresql.username=bench -Dquarkus.datasource.postgresql.password=bench
  start_nessie nessie-memory IN_MEMORY
  # shellcheck disable=SC2046
  start_floe floe $(floe_database_options)
  start_reference
  wait_for_nessies
}

# --- the stage: the same namespaces and tables on every server --------------------------------

prepare_catalogs() {
  local server pids=()
  log "creating namespaces and tables on every server (bench/setup_catalog.py)"
  for server in "${SERVERS[@]}"; do
    python3 "$BENCH/setup_catalog.py" "${BASE[$server]}" --token "$TOKEN" --only small \
      > "$WORK/setup-$server.log" 2>&1 || { cat "$WORK/setup-$server.log" >&2; fail "setup of $server"; }
  done
  log "16 tables of $BIG_SNAPSHOTS snapshots on every server, all servers at once"
  for server in "${SERVERS[@]}"; do
    python3 "$BENCH/setup_catalog.py" "${BASE[$server]}" --token "$TOKEN" --only big \
      --snapshots "$BIG_SNAPSHOTS" > "$WORK/big-$server.log" 2>&1 &
    pids+=("$!")
  done
  local i
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || { cat "$WORK/big-${SERVERS[$i]}.log" >&2; fail "big tables on ${SERVERS[$i]}"; }
  done
  for server in "${SERVERS[@]}"; do
    fact "big_response_bytes_$server" \
      "$(curl -sS -H "$AUTH" "${BASE[$server]}/namespaces/big/tables/b00" | wc -c)"
  done
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

# api METHOD URL [BODY]: fails unless the answer is 2xx.
api() {
  local method="$1" url="$2" body="${3:-}" code
  code="$(curl -sS -o "$WORK/api.out" -w '%{http_code}' -X "$method" -H "$AUTH" \
    -H 'Content-Type: application/json' ${body:+--data "$body"} "$url")"
  case "$code" in
    2??) ;;
    *) cat "$WORK/api.out" >&2; fail "$method $url answered $code" ;;
  esac
}

create_namespace() { api POST "$1/namespaces" "{\"namespace\": [\"$2\"]}"; }
create_table() {
  api POST "$1/namespaces/$2/tables" "{\"name\": \"$3\", \"stage-create\": false, \"schema\": {\"type\": \"struct\", \"schema-id\": 0, \"fields\": [{\"id\": 1, \"name\": \"id\", \"required\": true, \"type\": \"long\"}]}}"
}

# Floe and the reference keep their tables in PostgreSQL rows that SQL can clone; Nessie keeps
# them in its own version store, so listings are measured on the first two only.
seed_listings() {
  local size
  for size in "${LIST_SIZES[@]}"; do
    log "seeding list_$size: $size tables on Floe and the reference"
    create_namespace "${BASE[floe]}" "list_$size"; create_table "${BASE[floe]}" "list_$size" t000000
    create_namespace "${BASE[reference]}" "list_$size"
    create_table "${BASE[reference]}" "list_$size" t000000
    seed_floe_tables "list_$size" "$size"
    seed_reference_tables "list_$size" "$size"
  done
}

# --- measuring --------------------------------------------------------------------------------
#
# Each measurement runs in ROUNDS rounds, the servers taking turns (Floe, reference, Nessie JDBC,
# Nessie in-memory, Floe, ...), so that other work on the machine falls on all alike; the report
# takes each server's best round, since outside work only ever slows a server down.

ROUND=1
WRK_ENV=()                            # extra environment for the next measure's wrk script

# measure SERVER MEASUREMENT THREADS CONNECTIONS SECONDS SCRIPT URL [wrk options...]
# Runs wrk once and keeps its JSON report as results/SERVER__MEASUREMENT__rROUND.json.
measure() {
  local server="$1" measurement="$2" threads="$3" connections="$4" seconds="$5" script="$6" url="$7"
  shift 7
  local name="${server}__${measurement}__r${ROUND}"
  local report="$RESULTS/$name.json" output="$WORK/wrk-$name.txt"
  rm -f "$report"
  fact "load_$name" "$(cut -d' ' -f1 /proc/loadavg)"
  { env "${WRK_ENV[@]}" BENCH_ROUND="$ROUND" WRK_REPORT="$report" wrk -t"$threads" \
      -c"$connections" -d"${seconds}s" --timeout "$WRK_TIMEOUT" -s "$BENCH/wrk/$script" \
      -H "$AUTH" "$@" "$url" > "$output" 2>&1 && [ -s "$report" ]; } ||
    { cat "$output" >&2; fail "wrk failed for $server $measurement"; }
  WRK_ENV=()
  progress "$report" "$server" "$measurement"
}

# One line of progress; a run in which no request succeeded means the setup is broken.
progress() {
  python3 - "$1" "$2" "$3" "$ROUND" <<'PY' || fail "$2 $3: no request succeeded"
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

# in_rounds MEASUREMENT: runs `MEASUREMENT SERVER BASE-URL` on every server in turn, ROUNDS times.
in_rounds() {
  local measurement="$1" server
  for ROUND in $(seq 1 "$ROUNDS"); do
    for server in "${SERVERS[@]}"; do
      "$measurement" "$server" "${BASE[$server]}"
    done
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

spread_load() {
  WRK_ENV=(BENCH_PREFIX=s BENCH_TABLES=100 BENCH_DIGITS=3)
  measure "$1" load_spread "$LOAD_THREADS" "$LOAD_CONNECTIONS" "$LOAD_SECONDS" spread.lua \
    "$2/namespaces/spread/tables/"
}

# mixed SERVER BASE [WRITE-BASE]: loads spread over r00..r49 while one client commits to
# w00..w49 in turn (through WRITE-BASE if given: another replica of the same catalog).
mixed() {
  local server="$1" base="$2" write_base="${3:-$2}"
  local writes="$RESULTS/${server}__mixed_writes__r${ROUND}.json"
  env WRK_REPORT="$writes" BENCH_TABLES=50 wrk -t1 -c1 -d"$((LOAD_SECONDS + 1))s" \
    --timeout "$WRK_TIMEOUT" -s "$BENCH/wrk/commit_cycle.lua" -H "$AUTH" \
    "$write_base/namespaces/mixed/tables/" > "$WORK/wrk-$server-mixed-writes.txt" 2>&1 &
  local writer=$!
  sleep 0.5
  WRK_ENV=(BENCH_PREFIX=r BENCH_TABLES=50 BENCH_DIGITS=2)
  measure "$server" mixed "$LOAD_THREADS" "$LOAD_CONNECTIONS" "$LOAD_SECONDS" spread.lua \
    "$base/namespaces/mixed/tables/"
  wait "$writer" || { cat "$WORK/wrk-$server-mixed-writes.txt" >&2; fail "mixed writer on $server"; }
  progress "$writes" "$server" mixed_writes
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

# The catalog URI Iceberg's REST client is given: the base without /v1/<prefix>.
client_uri() { local base="$2"; echo "${base%%/v1*}"; }

# append SERVER BASE MEASUREMENT WRITERS TABLE: appends through Iceberg's Java client
# (bench/appends/AppendBench.java), each writing a real manifest and manifest list.
append() {
  local server="$1" base="$2" measurement="$3" writers="$4" table="$5"
  local report="$RESULTS/${server}__${measurement}__r${ROUND}.json"
  fact "load_${server}__${measurement}__r${ROUND}" "$(cut -d' ' -f1 /proc/loadavg)"
  # shellcheck disable=SC2086
  WRK_REPORT="$report" java -cp "$(cat "$WORK/reference.classpath")" \
    "$BENCH/appends/AppendBench.java" "$(client_uri "$server" "$base")" appends "$table" \
    "$writers" "$OP_SECONDS" "$((WARMUP_SECONDS / 2 + 1))" ${CLIENT_PROPERTIES[$server]} \
    > "$WORK/append-$server-$measurement.log" 2>&1 ||
    { tail -n 30 "$WORK/append-$server-$measurement.log" >&2; fail "appends on $server"; }
  progress "$report" "$server" "$measurement"
}

sequential_append() { append "$1" "$2" append_sequential 1 a01; }
concurrent_appends() { append "$1" "$2" append_concurrent "$APPENDERS" shared; }

# Each big table's first loads parse its file on every server: loaded for a while untimed first,
# so that what is measured is the steady state, as for the other loads.
warm_up_big() {
  env BENCH_PREFIX=b BENCH_TABLES=16 BENCH_DIGITS=2 WRK_REPORT=/dev/null wrk -t"$LOAD_THREADS" \
    -c"$LOAD_CONNECTIONS" -d"$((WARMUP_SECONDS / 2 + 1))s" --timeout "$WRK_TIMEOUT" \
    -s "$BENCH/wrk/spread.lua" -H "$AUTH" "$1/namespaces/big/tables/" >/dev/null
}

big_load() {
  WRK_ENV=(BENCH_PREFIX=b BENCH_TABLES=16 BENCH_DIGITS=2)
  measure "$1" load_big "$LOAD_THREADS" "$LOAD_CONNECTIONS" "$LOAD_SECONDS" spread.lua \
    "$2/namespaces/big/tables/"
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
  case "$server" in floe|reference) ;; *) return ;; esac
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

# The static-file ceiling: nginx from Debian serves the very bytes of Floe's hot load as a file,
# measured with the same wrk setting. No server can answer a load faster than that.
static_ceiling() {
  mkdir -p "$WORK/static/html" "$WORK/static/logs"
  curl -sS -H "$AUTH" -o "$WORK/static/html/t" "${BASE[floe]}/namespaces/hot/tables/t"
  fact static_bytes "$(wc -c < "$WORK/static/html/t")"
  local port; port="$(free_port)"
  cat > "$WORK/static/nginx.conf" <<NGINX
worker_processes $(nproc);
daemon off;
pid $WORK/static/nginx.pid;
error_log $WORK/static/logs/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  keepalive_requests 1000000;
  default_type application/json;
  server {
    listen 127.0.0.1:$port;
    root $WORK/static/html;
  }
}
NGINX
  /usr/sbin/nginx -c "$WORK/static/nginx.conf" -p "$WORK/static" > "$WORK/static/logs/nginx.out" 2>&1 &
  local pid=$!
  STARTED_PIDS+=("$pid")
  local tries=0
  until [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/t")" = 200 ]; do
    [ "$tries" -lt 60 ] || { cat "$WORK/static/logs/"* >&2; fail "nginx did not start"; }
    sleep 0.5; tries=$((tries + 1))
  done
  fact nginx "$(/usr/sbin/nginx -v 2>&1 | sed 's/^nginx version: //')"
  WRK_REPORT=/dev/null wrk -t"$LOAD_THREADS" -c"$LOAD_CONNECTIONS" -d"${WARMUP_SECONDS}s" \
    -s "$BENCH/wrk/load.lua" "http://127.0.0.1:$port/t" >/dev/null
  for ROUND in $(seq 1 "$ROUNDS"); do
    measure static load_hot "$LOAD_THREADS" "$LOAD_CONNECTIONS" "$LOAD_SECONDS" load.lua \
      "http://127.0.0.1:$port/t"
    measure floe load_hot_beside_static "$LOAD_THREADS" "$LOAD_CONNECTIONS" "$LOAD_SECONDS" \
      load.lua "${BASE[floe]}/namespaces/hot/tables/t"
  done
  stop_pid "$pid"
}

# Icechunk commits on S3 (moto, which enforces conditional writes): Floe's Java Icechunk and
# Python icechunk, each writing ICECHUNK_CHUNKS chunks and committing, several rounds.
icechunk_on_s3() {
  log "Icechunk commits on S3 (moto): Floe against Python icechunk"
  ICECHUNK_S3_BUCKET=icechunk ICECHUNK_CHUNKS="$ICECHUNK_CHUNKS" FLOE_PYTHON="$PYTHON" \
    bash "$ROOT/adapters-icechunk/bench/run.sh" --s3 "$MOTO_ENDPOINT" "$ICECHUNK_ROUNDS" \
    > "$WORK/icechunk.txt" 2> "$WORK/icechunk.log" ||
    { tail -n 40 "$WORK/icechunk.log" >&2; fail "Icechunk benchmark"; }
  python3 - "$WORK/icechunk.txt" >> "$FACTS" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    line = line.strip()
    if line.startswith("{"):
        r = json.loads(line)
        print(f"icechunk_{r['impl']}_{r['what']}\t{r['median_ms']}")
PY
  grep -v '^{' "$WORK/icechunk.txt" | sed 's/^/[bench]   /'
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
  fact appenders "$APPENDERS"
  fact big_snapshots "$BIG_SNAPSHOTS"
  fact icechunk_chunks "$ICECHUNK_CHUNKS"
  fact icechunk_rounds "$ICECHUNK_ROUNDS"
  fact nessie "$NESSIE_VERSION on $("$NESSIE_JAVA" -version 2>&1 | head -n 1)"
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
  fetch_nessie
  start_postgres
  record_facts
  settle
  fact load_start "$(load_average)"
  log "load average at start: $(load_average)"

  start_moto
  start_servers
  prepare_catalogs
  seed_listings

  local server
  log "warming up every server (${WARMUP_SECONDS}s of loads and commits each)"
  for server in "${SERVERS[@]}"; do warm_up "${BASE[$server]}"; done

  log "loadTable, hot"
  in_rounds hot_load
  log "loadTable with If-None-Match"
  in_rounds conditional_load
  log "loadTable spread over 100 tables"
  in_rounds spread_load
  log "mixed: loads over 50 tables while one client commits to 50 others"
  in_rounds mixed
  log "createTable, one client"
  in_rounds sequential_create
  log "commits, one client"
  in_rounds sequential_commit
  log "commits, $COMMITTERS clients on as many tables"
  in_rounds concurrent_commits
  log "appends through Iceberg's Java client, one client"
  in_rounds sequential_append
  log "appends, $APPENDERS clients on one table"
  in_rounds concurrent_appends
  log "loadTable over 16 tables of $BIG_SNAPSHOTS snapshots (after a warm-up of their own)"
  for server in "${SERVERS[@]}"; do warm_up_big "${BASE[$server]}"; done
  in_rounds big_load
  log "list-tables, first and last page of $PAGE_SIZE"
  in_rounds listing
  for server in "${SERVERS[@]}"; do record_peak_rss "$server" "${PID_OF[$server]}"; done
  for server in reference nessie-jdbc nessie-memory; do stop_pid "${PID_OF[$server]}"; done

  log "the static-file ceiling: nginx serving the bytes of Floe's hot load"
  static_ceiling

  # A second replica on Floe's database: the first keeps serving pointers from memory, and every
  # commit through either holds its table on both before it commits.
  log "Floe with a second replica on its database: hot, spread and mixed on the first"
  local floe_base="${BASE[floe]}" floe_pid="${PID_OF[floe]}"
  # shellcheck disable=SC2046
  start_floe floe-second $(floe_database_options) --secret-key-file "$WORK/floe-data/secret.key"
  local second_pid="$FLOE_PID" second_base="$FLOE_BASE"
  fact pointers_served_with_second "$(curl -s "${floe_base%/iceberg/*}/metrics" |
    awk '/^floe_pointers_served / {print $2}')"
  WRK_REPORT=/dev/null wrk -t"$LOAD_THREADS" -c"$LOAD_CONNECTIONS" \
    -d"$((WARMUP_SECONDS / 3 + 1))s" -s "$BENCH/wrk/load.lua" -H "$AUTH" \
    "$floe_base/namespaces/hot/tables/t" >/dev/null
  for ROUND in $(seq 1 "$ROUNDS"); do
    hot_load floe-replicas "$floe_base"
    spread_load floe-replicas "$floe_base"
    mixed floe-replicas "$floe_base" "$second_base"
  done
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

  icechunk_on_s3

  fact load_end "$(load_average)"
  log "load average at end: $(load_average)"
  write_report
  log "done"
}

main
