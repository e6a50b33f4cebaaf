#!/usr/bin/env bash
# The storage fault soak: PyIceberg appends through Floe to a table on moto behind a
# fault-injecting proxy on loopback (10% 503 SlowDown, lost PUT answers, slow answers, then a
# 20 s outage of the bucket), with a probe timing REST commits. At the end the server must be
# ready and every acknowledged append and commit must read back. Prints the figures as JSON and
# exits non-zero on a failure. Everything runs on loopback and stops by itself. Not part of the
# test command. See docs/operations.md, "When an object store fails".
#
#   bash bench/storage_soak.sh                # two minutes
#   bash bench/storage_soak.sh --minutes 5
#
# Needs Java 17, Maven and the Python of .ci/python-requirements.txt (FLOE_PYTHON, else .venv).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
MINUTES=2
BUILD=true
while [ $# -gt 0 ]; do
  case "$1" in
    --minutes) MINUTES="$2"; shift ;;
    --no-build) BUILD=false ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "usage: bash bench/storage_soak.sh [--minutes N] [--no-build]" >&2; exit 2 ;;
  esac
  shift
done
[[ "$MINUTES" =~ ^[0-9]+([.][0-9]+)?$ ]] || { echo "--minutes takes a number" >&2; exit 2; }
cd "$ROOT"
PYTHON="${FLOE_PYTHON:-$ROOT/.venv/bin/python}"
if $BUILD; then
  mvn -o -q -pl bootstrap -am -DskipTests package
fi
exec "$PYTHON" bench/storage_soak.py --minutes "$MINUTES"
