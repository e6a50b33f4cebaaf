#!/usr/bin/env bash
# Icechunk benchmark -- not a test, never part of the build's test run. Measures, on this machine
# and the local filesystem, Floe's pure-Java Icechunk and Python icechunk side by side:
#   - opening a snapshot of a repository with 10,000 nodes (each side opens both the repository
#     it built and the one the other side built), and 1,000 node lookups in it;
#   - writing 1,000 chunks of 1 KiB in a session, committing them, and reading them back.
#
# With --s3 ENDPOINT, only the commit measurement, with both sides' repositories in the bucket
# ICECHUNK_S3_BUCKET (default icechunk, which must exist) of that S3-compatible server, e.g. moto,
# which enforces conditional writes as S3 does; ICECHUNK_CHUNKS sets the chunks per commit round.
# Usage: adapters-icechunk/bench/run.sh [--s3 ENDPOINT] [rounds]   (env FLOE_PYTHON, MVN_ARGS)
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
S3=""
if [ "${1:-}" = "--s3" ]; then
  S3="$2"; shift 2
  export ICECHUNK_S3_ENDPOINT="$S3"
  export AWS_ACCESS_KEY_ID="${AWS_ACCESS_KEY_ID:-bench}" AWS_SECRET_ACCESS_KEY="${AWS_SECRET_ACCESS_KEY:-bench}"
fi
ROUNDS="${1:-10}"
PYTHON="${FLOE_PYTHON:-$ROOT/.venv/bin/python}"
MVN_ARGS="${MVN_ARGS:-}"
# e.g. FLOE_JAVA_OPTS="-XX:+FlightRecorder -XX:StartFlightRecording=filename=/tmp/floe.jfr"
FLOE_JAVA_OPTS="${FLOE_JAVA_OPTS:-}"
WORK="$(mktemp -d /tmp/floe-icechunk-bench.XXXXXX)"
# Python icechunk warns on stderr about the local filesystem's lack of conditional writes; its
# stderr goes to a log that is shown only when something fails.
trap 'status=$?; [ $status -ne 0 ] && [ -f "$WORK/python.log" ] && tail -40 "$WORK/python.log" >&2; rm -rf "$WORK"' EXIT

cd "$ROOT"
echo "building adapters-icechunk and its classpath..." >&2
# The reactor builds the modules it depends on too (nothing is installed into ~/.m2); the last
# module written, adapters-icechunk, leaves its own test classpath in the file.
# shellcheck disable=SC2086
mvn -q -B -o $MVN_ARGS package dependency:build-classpath -DskipTests -pl adapters-icechunk -am \
  -Dmdep.includeScope=test -Dmdep.outputFile="$WORK/classpath.txt" >&2
# A copy of the classes, so rebuilding the tree while the benchmark runs changes nothing here.
cp -r "$ROOT/adapters-icechunk/target/classes" "$WORK/classes"
CLASSPATH_JAVA="$WORK/classes:$(cat "$WORK/classpath.txt")"
if [ -n "$S3" ]; then
  # The S3 client needs the Apache HTTP client adapters-storage resolves (4.5); this module's own
  # graph picks an older one (through zarr-java's cdm), which reading S3 never reaches otherwise.
  # shellcheck disable=SC2086
  mvn -q -B -o $MVN_ARGS dependency:build-classpath -pl adapters-storage \
    -Dmdep.outputFile="$WORK/storage-classpath.txt" >&2
  # Without adapters-storage's logging backend, which would print the SDK's debug lines on stdout.
  storage_classpath="$(tr ':' '\n' < "$WORK/storage-classpath.txt" | grep -v '/ch/qos/logback/' |
    paste -sd ':')"
  CLASSPATH_JAVA="$WORK/classes:$storage_classpath:$(cat "$WORK/classpath.txt")"
fi

floe() { java $FLOE_JAVA_OPTS -cp "$CLASSPATH_JAVA" "$HERE/IcechunkBench.java" "$WORK" "$@"; }
python() { "$PYTHON" "$HERE/icechunk_bench.py" "$WORK" "$@" 2>>"$WORK/python.log"; }
label() { sed "s/\"what\"/\"repo\":\"$1\",\"what\"/"; }

if [ -n "$S3" ]; then
  run_id="$(date +%s)-$$"
  {
    floe commit "floe-chunks-$run_id" "$ROUNDS"
    python commit "python-chunks-$run_id" "$ROUNDS"
  } | tee "$WORK/results.jsonl"
else
{
  floe build-nodes floe-nodes
  python build-nodes python-nodes
  floe open floe-nodes "$ROUNDS" | label floe-built
  floe open python-nodes "$ROUNDS" | label python-built
  python open floe-nodes "$ROUNDS" | label floe-built
  python open python-nodes "$ROUNDS" | label python-built
  floe commit floe-chunks "$ROUNDS"
  python commit python-chunks "$ROUNDS"
} | tee "$WORK/results.jsonl"
fi

echo
# Side by side: the medians of each measurement and Floe's time as a multiple of Python's.
"$PYTHON" - "$WORK/results.jsonl" <<'SUMMARY'
import json, sys
rows = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    rows.setdefault((r["what"], r.get("repo", "")), {})[r["impl"]] = r["median_ms"]
print(f"{'measurement':<34} {'repo':<13} {'floe ms':>9} {'python ms':>10} {'floe/python':>12}")
for (what, repo), m in rows.items():
    f, p = m.get("floe"), m.get("python")
    ratio = f"{f / p:.2f}x" if f is not None and p else "-"
    print(f"{what:<34} {repo:<13} {f if f is not None else '-':>9} {p if p is not None else '-':>10} {ratio:>12}")
SUMMARY
echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), $(free -g | awk '/Mem:/{print $2}') GiB;" \
  "$(java -version 2>&1 | head -1); Python $("$PYTHON" -c 'import sys,icechunk,zarr;print(sys.version.split()[0], "icechunk", icechunk.__version__, "zarr", zarr.__version__)')"
