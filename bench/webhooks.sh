#!/usr/bin/env bash
# Webhook delivery latency, and what a webhook subscription costs a sequential commit: Floe from
# its jar on its embedded default with a short webhook poll interval, one table committed to
# through the Iceberg REST API, a receiver on loopback (bench/webhook_latency.py says how it
# measures). Not a test, and not part of bench/run.sh. Runs a few minutes; prints a summary and
# one JSON line.
#
#   bash bench/webhooks.sh                               # 300 commits each side, poll every 100 ms
#   bash bench/webhooks.sh --no-build --commits 100      # reuse the jar, shorter
#   bash bench/webhooks.sh -- --database-url jdbc:...    # options after -- go to floe serve
#
# Needs Java 17, Maven (unless --no-build) and python3 (its standard library only).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

BUILD=true
ARGS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) BUILD=false ;;
    -h|--help) exec python3 bench/webhook_latency.py --help ;;
    --) ARGS+=("$@"); break ;;
    *) ARGS+=("$1") ;;
  esac
  shift
done

if $BUILD; then
  echo "building the jar..." >&2
  # shellcheck disable=SC2086
  mvn -B -q -DskipTests ${MVN_ARGS:-} package >/dev/null
fi
[ -f bootstrap/target/floe.jar ] || { echo "bootstrap/target/floe.jar is missing" >&2; exit 1; }

echo "machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p');" \
  "$(java -version 2>&1 | head -1)" >&2
exec python3 bench/webhook_latency.py --floe "$ROOT/floe" "${ARGS[@]}"
