#!/usr/bin/env bash
# Icechunk benchmark -- not a test, never part of the build's test run. Measures, on this machine
# and the local filesystem, Floe's pure-Java Icechunk and Python icechunk side by side:
#   - opening a snapshot of a repository with 10,000 nodes (each side opens both the repository
#     it built and the one the other side built), and listing its nodes;
#   - writing 1,000 chunks of 1 KiB in a session and committing them.
# Usage: adapters-icechunk/bench/run.sh [rounds]   (env FLOE_PYTHON, MVN_ARGS)
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
ROUNDS="${1:-10}"
PYTHON="${FLOE_PYTHON:-$ROOT/.venv/bin/python}"
MVN_ARGS="${MVN_ARGS:-}"
WORK="$(mktemp -d /tmp/floe-icechunk-bench.XXXXXX)"
# Python icechunk warns on stderr about the local filesystem's lack of conditional writes; its
# stderr goes to a log that is shown only when something fails.
trap 'status=$?; [ $status -ne 0 ] && [ -f "$WORK/python.log" ] && tail -40 "$WORK/python.log" >&2; rm -rf "$WORK"' EXIT

cd "$ROOT"
echo "building adapters-icechunk and its classpath..." >&2
# shellcheck disable=SC2086
mvn -q -B -o $MVN_ARGS package -DskipTests -pl adapters-icechunk >&2
# shellcheck disable=SC2086
mvn -q -B -o $MVN_ARGS dependency:build-classpath -pl adapters-icechunk -Dmdep.includeScope=test \
  -Dmdep.outputFile="$WORK/classpath.txt" >&2
CLASSPATH_JAVA="$ROOT/adapters-icechunk/target/classes:$(cat "$WORK/classpath.txt")"

floe() { java -cp "$CLASSPATH_JAVA" "$HERE/IcechunkBench.java" "$WORK" "$@"; }
python() { "$PYTHON" "$HERE/icechunk_bench.py" "$WORK" "$@" 2>>"$WORK/python.log"; }
label() { sed "s/\"what\"/\"repo\":\"$1\",\"what\"/"; }

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

echo
echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), $(free -g | awk '/Mem:/{print $2}') GiB;" \
  "$(java -version 2>&1 | head -1); Python $("$PYTHON" -c 'import sys,icechunk,zarr;print(sys.version.split()[0], "icechunk", icechunk.__version__, "zarr", zarr.__version__)')"
