#!/usr/bin/env bash
# Scan planning on the client against planning on the server: PyIceberg 0.12 and Iceberg's Java
# client, each both ways, on a table of 10,000 data files in 1,000 manifests and one of 5,000
# snapshots, on moto (S3) behind a proxy on loopback that delays every object-store request
# (Floe's and the client's alike) and counts each one's requests and bytes. Prints a markdown
# table and writes it into docs/benchmarks.md, section "Scan planning". Everything runs on
# loopback and stops by itself; the tables are built afresh each run (a few minutes). Not part
# of the test command. See docs/running-benchmarks.md, "Scan planning".
#
#   bash bench/scan_planning.sh                      # 30 ms a request, 2 rounds, 5,000 snapshots
#   bash bench/scan_planning.sh --no-build --delay-ms 20 --rounds 3 --no-java
#   bash bench/scan_planning.sh --no-build --manifests 20 --snapshots 30 --output /tmp/x  # try-out
#
# Needs Java 17, Maven and the Python of .ci/python-requirements.txt (FLOE_PYTHON, else .venv).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD=true
ARGS=()
OUTPUT="$ROOT/docs"
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) BUILD=false ;;
    --output) OUTPUT="$(mkdir -p "$2" && cd "$2" && pwd)"; shift ;;
    --delay-ms|--rounds|--snapshots|--manifests|--json) ARGS+=("$1" "$2"); shift ;;
    --no-java) ARGS+=("$1") ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "usage: bash bench/scan_planning.sh [--no-build] [--delay-ms MS] [--rounds N]" \
         "[--snapshots N] [--manifests N] [--no-java] [--json FILE] [--output DIR]" >&2; exit 2 ;;
  esac
  shift
done
cd "$ROOT"
PYTHON="${FLOE_PYTHON:-$ROOT/.venv/bin/python}"
if $BUILD; then
  mvn -o -q -pl bootstrap -am -DskipTests package
fi
exec "$PYTHON" bench/scan_planning.py --output "$OUTPUT" "${ARGS[@]}"
