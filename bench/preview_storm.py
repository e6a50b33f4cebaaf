#!/usr/bin/env python3
"""One org's storm of data previews against another org's preview latency.

Starts Floe from its jar (`floe serve` on its embedded default, a fresh data directory), makes
two orgs, A and B, each with one table of a few thousand rows written by PyIceberg, and signs in
to the web app as each. Then it loads B's table page (which reads its first rows in the server:
the data preview) one request at a time:

  * alone, for --requests requests;
  * while --storm threads load A's table page as fast as they can.

It prints B's latency (median, p95, max) both ways, how A's requests were answered (200 or 429,
the per-org budget of heavy work, --heavy-work-per-org), and one JSON line. It exits non-zero if
B was ever refused, or if A was never refused during the storm (then the budget did nothing).

    python bench/preview_storm.py --floe ./floe          # after mvn -DskipTests package
"""

import argparse
import json
import pathlib
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

import pyarrow as pa
import requests
from pyiceberg.catalog.rest import RestCatalog

ROOT = pathlib.Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_floe(floe: str, work: pathlib.Path, extra: list[str]):
    port = free_port()
    log = open(work / "floe.log", "w")
    process = subprocess.Popen([floe, "serve", "--port", str(port), "--data-dir",
                                str(work / "floe"), *extra], stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"Floe exited: {(work / 'floe.log').read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/ready", timeout=2) as answer:
                if answer.status == 200:
                    return process, port
        except OSError:
            pass
        time.sleep(0.5)
    process.kill()
    raise RuntimeError("Floe did not become ready")


def make_org(base: str, admin: str, name: str, rows: int) -> tuple[str, str]:
    """An org with table ns.t of `rows` rows; its admin token and its table page's path."""
    answer = requests.post(f"{base}/orgs", json={"name": name},
                           headers={"Authorization": f"Bearer {admin}"}, timeout=60)
    answer.raise_for_status()
    token = answer.json()["token"]
    catalog = RestCatalog(name, uri=f"{base}/iceberg", warehouse=name, token=token)
    catalog.create_namespace("ns")
    data = pa.table({"id": list(range(rows)), "name": [f"row {i}" for i in range(rows)]})
    catalog.create_table("ns.t", schema=data.schema).append(data)
    return token, f"/ui/orgs/{name}/namespaces/ns/tables/t"


def signed_in(base: str, token: str) -> requests.Session:
    session = requests.Session()
    session.get(f"{base}/ui/sign-in", timeout=30)
    form = session.cookies.get("floe_sign_in")
    answer = session.post(f"{base}/ui/sign-in", data={"_csrf": form, "token": token, "next": "/"},
                          allow_redirects=False, timeout=30)
    assert answer.status_code in (302, 303), answer.text[:500]
    return session


def timed(session: requests.Session, url: str) -> tuple[int, float, str]:
    started = time.monotonic()
    answer = session.get(url, timeout=120)
    return answer.status_code, time.monotonic() - started, answer.headers.get("Retry-After", "")


def summary(latencies: list[float]) -> dict:
    ordered = sorted(latencies)
    return {"n": len(ordered), "median_ms": round(statistics.median(ordered) * 1000, 1),
            "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))] * 1000, 1),
            "max_ms": round(ordered[-1] * 1000, 1)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--floe", default=str(ROOT / "floe"))
    parser.add_argument("--requests", type=int, default=60, help="B's page loads each way")
    parser.add_argument("--storm", type=int, default=12, help="A's concurrent loaders")
    parser.add_argument("--rows", type=int, default=5000)
    parser.add_argument("--json", help="also write the JSON line to this file")
    parser.add_argument("serve", nargs="*", help="options for floe serve, after --")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="floe-preview-storm-") as tmp:
        work = pathlib.Path(tmp)
        process, port = start_floe(args.floe, work, args.serve)
        try:
            base = f"http://127.0.0.1:{port}"
            admin = (work / "floe" / "admin.token").read_text().strip()
            token_a, page_a = make_org(base, admin, "org-a", args.rows)
            token_b, page_b = make_org(base, admin, "org-b", args.rows)
            session_b = signed_in(base, token_b)
            for _ in range(5):  # warm-up: classes loaded, JIT, connections
                timed(session_b, base + page_b)

            alone = [timed(session_b, base + page_b) for _ in range(args.requests)]

            stop = threading.Event()
            a_answers: list[tuple[int, str]] = []
            lock = threading.Lock()

            def storm():
                session = signed_in(base, token_a)
                while not stop.is_set():
                    status, _, retry = timed(session, base + page_a)
                    with lock:
                        a_answers.append((status, retry))

            threads = [threading.Thread(target=storm) for _ in range(args.storm)]
            for thread in threads:
                thread.start()
            while True:  # the storm is under way once A has been answered a few times
                with lock:
                    if len(a_answers) >= args.storm:
                        break
                time.sleep(0.05)
            stormed = [timed(session_b, base + page_b) for _ in range(args.requests)]
            stop.set()
            for thread in threads:
                thread.join()
        finally:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=60)

    b_refused = [s for s, _, _ in alone + stormed if s != 200]
    a_ok = sum(1 for s, _ in a_answers if s == 200)
    a_busy = [retry for s, retry in a_answers if s == 429]
    result = {"b_alone": summary([t for _, t, _ in alone]),
              "b_during_storm": summary([t for _, t, _ in stormed]),
              "b_refused": len(b_refused), "storm_threads": args.storm,
              "a_answered_200": a_ok, "a_answered_429": len(a_busy),
              "a_other": len(a_answers) - a_ok - len(a_busy),
              "a_429_with_retry_after": sum(1 for r in a_busy if r)}
    print(f"B alone:        {result['b_alone']}")
    print(f"B during storm: {result['b_during_storm']}")
    print(f"A ({args.storm} threads): {a_ok} answered 200, {len(a_busy)} answered 429 "
          f"({result['a_429_with_retry_after']} with Retry-After), {result['a_other']} other")
    print(json.dumps(result))
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(result) + "\n")
    if b_refused:
        print(f"B was refused {len(b_refused)} times: {b_refused[:5]}", file=sys.stderr)
        return 1
    if not a_busy or result["a_429_with_retry_after"] != len(a_busy):
        print("A was never refused with 429 and Retry-After during the storm", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
