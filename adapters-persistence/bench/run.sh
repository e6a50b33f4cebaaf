#!/usr/bin/env bash
# Audit-log benchmark -- not a test, never part of the build's test run. Measures, on the embedded
# PostgreSQL, what recording a change in the audit log adds to a commit's database transaction
# (the pointer's compare-and-swap alone vs the same with the audit insert, interleaved), on an
# empty log and on one already holding many entries, and what listing a page of such a log costs.
# Usage: adapters-persistence/bench/run.sh [rounds] [entries >= 100000]   (env MVN_ARGS)
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
ROUNDS="${1:-2000}"
ENTRIES="${2:-1000000}"
MVN_ARGS="${MVN_ARGS:-}"
WORK="$(mktemp -d /tmp/floe-audit-bench.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT

cd "$ROOT"
echo "building adapters-persistence and its classpath..." >&2
# shellcheck disable=SC2086
mvn -q -B -o $MVN_ARGS package dependency:build-classpath -DskipTests -pl adapters-persistence -am \
  -Dmdep.includeScope=test -Dmdep.outputFile="$WORK/classpath.txt" >&2
CLASSPATH_JAVA="$ROOT/adapters-persistence/target/classes:$(cat "$WORK/classpath.txt")"

java -Dlogback.configurationFile="$ROOT/adapters-persistence/src/build/logback-codegen.xml" \
  -cp "$CLASSPATH_JAVA" "$HERE/AuditCostBench.java" "$WORK" "$ROUNDS" "$ENTRIES" \
  | tee "$WORK/results.jsonl"

echo
echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), $(free -g | awk '/Mem:/{print $2}') GiB;" \
  "$(java -version 2>&1 | head -1)"
