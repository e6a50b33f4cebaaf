#!/usr/bin/env python3
"""Webhook delivery latency, and what a webhook subscription costs a sequential commit.

Run by bench/webhooks.sh; Python's standard library only. Starts Floe from its jar (`floe serve`
on its embedded default, or with the serve options given after `--`) with a short webhook poll
interval and loopback receivers allowed, creates one table and commits to it through the Iceberg
REST API, one commit at a time over one kept-alive connection (requirement-free set-properties
commits, as bench/run.sh's sequential commit: the metadata does not grow over the run).

  * Commit cost: blocks of commits with no subscription and with one subscription to the table
    (its receiver on loopback, in a process of its own), alternating, each block after a
    warm-up; each commit's time from sending the request to reading the answer.
  * Delivery latency, sequential: during the blocks with the subscription, for every commit the
    time from reading its acknowledgement to the receiver getting its event (matched by the
    metadata file the commit made). The commits do not wait for deliveries: when delivery is
    slower than committing, events queue and their latency grows, as they would for a client
    committing back to back.
  * Delivery latency, one at a time: commits that each wait for their event before the next.
  * With --hanging N: the same one-at-a-time latency of one healthy receiver, first alone, then
    with N more subscriptions to the same table whose receiver (a local server, in a process of
    its own) accepts every connection and never answers. The healthy subscription exists (and
    has delivered) before the hanging ones are created, as an existing receiver would be when
    others start hanging. The hanging receiver stops by itself after an hour at the latest.

Both clocks are the machine's monotonic clock (CLOCK_MONOTONIC, shared by every process). Prints
a summary and one JSON line; --json FILE writes the JSON there too.
"""

import argparse
import http.client
import http.server
import json
import multiprocessing
import os
import pathlib
import platform
import queue
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[1]
ORG = "my-org"
NAMESPACE = "bench_webhooks"
TABLE = "commits"
SCHEMA = {"type": "struct", "schema-id": 0, "fields": [
    {"id": 1, "name": "id", "required": False, "type": "long"}]}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def receive(port: int, arrivals, ready) -> None:
    """The webhook receiver's process: acknowledges every POST and reports when each came, with
    the metadata file of its commit."""

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self):
            body = self.rfile.read(int(self.headers["Content-Length"]))
            arrived = time.monotonic_ns()
            self.send_response(204)
            self.send_header("Content-Length", "0")
            self.end_headers()
            details = json.loads(body)["data"]["details"]
            arrivals.put((arrived, details.get("metadata_location"), self.headers["webhook-id"]))

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
    ready.set()
    server.serve_forever()


def hang(port: int, ready, lifetime: float) -> None:
    """The hanging receiver's process: accepts every connection and never answers; gives up
    after `lifetime` seconds."""
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(1024)
    listener.settimeout(1)
    held = []
    ready.set()
    deadline = time.monotonic() + lifetime
    while time.monotonic() < deadline:
        try:
            connection, _ = listener.accept()
            held.append(connection)
        except socket.timeout:
            continue


class Api:
    """One kept-alive HTTP connection to Floe, as the admin."""

    def __init__(self, port: int, token: str):
        self.port = port
        self.headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

    def call(self, method: str, path: str, body=None, ok=(200, 201, 204)):
        try:
            response = self.send(method, path, body)
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            # The server closed the kept-alive connection while it was idle (a long wait for
            # an event): a new one.
            self.connection.close()
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
            response = self.send(method, path, body)
        payload = response.read()
        if response.status not in ok:
            raise RuntimeError(f"{method} {path} answered {response.status}: {payload[:500]!r}")
        return json.loads(payload) if payload else None

    def send(self, method: str, path: str, body):
        self.connection.request(method, path, headers=self.headers,
                                body=None if body is None else json.dumps(body).encode())
        return self.connection.getresponse()


class Bench:
    def __init__(self, api: Api, arrivals, receiver_url: str):
        self.api = api
        self.arrivals = arrivals
        self.receiver_url = receiver_url
        self.commits = 0
        self.table_path = f"/iceberg/v1/{ORG}/namespaces/{NAMESPACE}/tables/{TABLE}"

    def commit(self) -> tuple[int, int, str]:
        """One commit: (nanoseconds it took, monotonic time of its acknowledgement, the metadata
        file it made)."""
        self.commits += 1
        body = {"requirements": [], "updates": [
            {"action": "set-properties", "updates": {"bench.commit": str(self.commits)}}]}
        start = time.monotonic_ns()
        answer = self.api.call("POST", self.table_path, body)
        acknowledged = time.monotonic_ns()
        return acknowledged - start, acknowledged, answer["metadata-location"]

    def subscribe(self) -> str:
        created = self.api.call("POST", f"/orgs/{ORG}/subscriptions", {
            "url": self.receiver_url, "namespace": NAMESPACE, "table": TABLE,
            "operations": ["table.commit"]})
        return created["subscription"]["id"]

    def unsubscribe(self, subscription: str) -> None:
        self.api.call("DELETE", f"/orgs/{ORG}/subscriptions/{subscription}")

    def await_events(self, locations: set[str], timeout: float = 300) -> dict[str, int]:
        """When each of the commits that made `locations` reached the receiver."""
        arrived = {}
        deadline = time.monotonic() + timeout
        while not locations <= arrived.keys():
            left = deadline - time.monotonic()
            if left <= 0:
                raise RuntimeError(f"{len(locations - arrived.keys())} events never arrived")
            try:
                at, location, _ = self.arrivals.get(timeout=left)
            except queue.Empty:
                continue
            if location in locations:
                if location in arrived:
                    raise RuntimeError(f"the event of {location} arrived twice")
                arrived[location] = at
        return arrived

    def block(self, commits: int, subscribed: bool) -> tuple[list[int], list[int], list[str]]:
        """`commits` commits back to back, with a subscription or without; their times, and with
        a subscription the latency of each one's event (after the block, all arrived)."""
        subscription = self.subscribe() if subscribed else None
        times, acknowledged, locations = [], [], []
        for _ in range(commits):
            took, at, location = self.commit()
            times.append(took)
            acknowledged.append(at)
            locations.append(location)
        latencies = []
        if subscription is not None:
            arrived = self.await_events(set(locations))
            latencies = [arrived[location] - at for location, at in zip(locations, acknowledged)]
            order = sorted(locations, key=arrived.get)
            if order != locations:
                raise RuntimeError("events arrived out of commit order")
            self.unsubscribe(subscription)
        return times, latencies, locations

    def one_at_a_time(self, commits: int, subscription: str | None = None) -> list[int]:
        """Commits that each wait for their event; on a new subscription, or an existing one."""
        own = subscription is None
        if own:
            subscription = self.subscribe()
        latencies = []
        for _ in range(commits):
            _, at, location = self.commit()
            latencies.append(self.await_events({location})[location] - at)
        if own:
            self.unsubscribe(subscription)
        return latencies

    def hanging_subscriptions(self, count: int, url: str) -> list[str]:
        """`count` subscriptions to the table at `url`, owned by admin API clients created for
        them (a principal owns at most 20 subscriptions in an org)."""
        created, owners = [], 0
        admin = self.api
        while len(created) < count:
            owners += 1
            client = admin.call("POST", f"/orgs/{ORG}/api-clients",
                                {"name": f"bench-hanging-{owners}", "role": "admin"})
            principal = client.get("id") or client.get("api_client", {}).get("id")
            token = admin.call("POST", f"/orgs/{ORG}/tokens", {"principal_id": principal,
                                                              "expires_in_seconds": 86400})
            owner = Api(admin.port, token["token"])
            for _ in range(min(20, count - len(created))):
                made = owner.call("POST", f"/orgs/{ORG}/subscriptions", {
                    "url": f"{url}/{len(created)}", "namespace": NAMESPACE, "table": TABLE,
                    "operations": ["table.commit"]})
                created.append(made["subscription"]["id"])
        return created


def percentile(values: list[int], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))]


def summary(values: list[int]) -> dict:
    ms = [v / 1e6 for v in values]
    return {"n": len(ms), "min_ms": round(min(ms), 2), "p50_ms": round(percentile(ms, 0.5), 2),
            "p90_ms": round(percentile(ms, 0.9), 2), "p99_ms": round(percentile(ms, 0.99), 2),
            "max_ms": round(max(ms), 2), "mean_ms": round(statistics.fmean(ms), 2)}


def load() -> str:
    return " ".join(pathlib.Path("/proc/loadavg").read_text().split()[:3])


def start_floe(floe: str, work: pathlib.Path, poll_interval: str, extra: list[str]):
    port = free_port()
    log = open(work / "floe.log", "w")
    process = subprocess.Popen(
        [floe, "serve", "--port", str(port), "--data-dir", str(work / "floe"),
         "--allow-private-webhook-targets", "--webhook-poll-interval", poll_interval, *extra],
        stdout=log, stderr=subprocess.STDOUT)
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


def stop_floe(process) -> None:
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commits", type=int, default=300,
                        help="measured commits with a subscription, and as many without")
    parser.add_argument("--block", type=int, default=50, help="commits per block")
    parser.add_argument("--warm-up", type=int, default=200,
                        help="unmeasured commits first, half of them with a subscription")
    parser.add_argument("--one-at-a-time", type=int, default=100,
                        help="commits that each wait for their event before the next")
    parser.add_argument("--hanging", type=int, default=0,
                        help="also measure one healthy receiver's latency, alone and beside "
                             "this many subscriptions to a receiver that never answers")
    parser.add_argument("--hanging-commits", type=int, default=100,
                        help="one-at-a-time commits measured alone and with hanging receivers")
    parser.add_argument("--poll-interval", default="PT0.1S",
                        help="the server's --webhook-poll-interval")
    parser.add_argument("--floe", default=str(ROOT / "floe"), help="the floe command")
    parser.add_argument("--json", help="also write the results' JSON to this file")
    parser.add_argument("--keep-work", action="store_true",
                        help="keep the scratch directory (the server's data and log)")
    parser.add_argument("serve_options", nargs="*",
                        help="more options for floe serve, after --")
    args = parser.parse_args()
    if args.commits % args.block:
        parser.error("--commits must be a multiple of --block")

    work = pathlib.Path(tempfile.mkdtemp(prefix="floe-webhook-bench."))
    loads = {"start": load()}
    process, port = start_floe(args.floe, work, args.poll_interval, args.serve_options)
    receiver = None
    try:
        token = (work / "floe" / "admin.token").read_text().strip()
        api = Api(port, token)
        api.call("POST", f"/iceberg/v1/{ORG}/namespaces", {"namespace": [NAMESPACE]})
        api.call("POST", f"/iceberg/v1/{ORG}/namespaces/{NAMESPACE}/tables",
                 {"name": TABLE, "schema": SCHEMA})

        arrivals, ready = multiprocessing.Queue(), multiprocessing.Event()
        receiver_port = free_port()
        receiver = multiprocessing.Process(target=receive, args=(receiver_port, arrivals, ready),
                                           daemon=True)
        receiver.start()
        if not ready.wait(30):
            raise RuntimeError("the receiver did not start")
        bench = Bench(api, arrivals, f"http://127.0.0.1:{receiver_port}/hook")

        print(f"warming up: {args.warm_up} commits", file=sys.stderr)
        bench.block(args.warm_up // 2, subscribed=False)
        bench.block(args.warm_up - args.warm_up // 2, subscribed=True)
        loads["measured"] = load()

        plain, with_subscription, latencies = [], [], []
        blocks = args.commits // args.block
        for number in range(blocks):
            # Without first in even rounds, with first in odd ones: both see the same machine.
            for subscribed in ((False, True) if number % 2 == 0 else (True, False)):
                times, block_latencies, _ = bench.block(args.block, subscribed)
                (with_subscription if subscribed else plain).extend(times)
                latencies.extend(block_latencies)
            print(f"block {number + 1}/{blocks} done", file=sys.stderr)
        single = bench.one_at_a_time(args.one_at_a_time) if args.one_at_a_time else []
        alone, beside = [], []
        if args.hanging:
            hang_port = free_port()
            hang_ready = multiprocessing.Event()
            hanger = multiprocessing.Process(target=hang, args=(hang_port, hang_ready, 3600),
                                             daemon=True)
            hanger.start()
            if not hang_ready.wait(30):
                raise RuntimeError("the hanging receiver did not start")
            try:
                healthy = bench.subscribe()
                bench.one_at_a_time(5, healthy)  # delivered before: a proven receiver
                print(f"healthy receiver alone: {args.hanging_commits} commits", file=sys.stderr)
                alone = bench.one_at_a_time(args.hanging_commits, healthy)
                bench.hanging_subscriptions(args.hanging,
                                            f"http://127.0.0.1:{hang_port}/never")
                print(f"healthy receiver beside {args.hanging} hanging ones: "
                      f"{args.hanging_commits} commits", file=sys.stderr)
                loads["hanging"] = load()
                beside = bench.one_at_a_time(args.hanging_commits, healthy)
            finally:
                hanger.terminate()
        loads["end"] = load()
    finally:
        if receiver is not None:
            receiver.terminate()
        stop_floe(process)
        if not args.keep_work:
            subprocess.run(["rm", "-rf", str(work)], check=False)
        else:
            print(f"scratch directory kept: {work}", file=sys.stderr)

    result = {
        "poll_interval": args.poll_interval,
        "commit_without_subscription": summary(plain),
        "commit_with_subscription": summary(with_subscription),
        "commit_ratio_p50": round(percentile(with_subscription, 0.5) / percentile(plain, 0.5), 3),
        "commit_ratio_mean": round(statistics.fmean(with_subscription)
                                   / statistics.fmean(plain), 3),
        "delivery_latency_sequential": summary(latencies),
        "delivery_latency_one_at_a_time": summary(single) if single else None,
        "hanging_receivers": args.hanging,
        "healthy_alone": summary(alone) if alone else None,
        "healthy_beside_hanging": summary(beside) if beside else None,
        "load_average": loads,
        "machine": f"{os.cpu_count()} cores, {platform.machine()}, {platform.platform()}",
    }
    c0, c1 = result["commit_without_subscription"], result["commit_with_subscription"]
    print(f"\nsequential commits, {len(plain)} each side, blocks of {args.block} alternating:")
    print(f"  {'':<22} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} {'mean ms':>8}")
    for name, s in (("no subscription", c0), ("one subscription", c1)):
        print(f"  {name:<22} {s['p50_ms']:>8} {s['p90_ms']:>8} {s['p99_ms']:>8} {s['mean_ms']:>8}")
    print(f"  with/without: p50 {result['commit_ratio_p50']}, mean {result['commit_ratio_mean']}")
    print(f"\ncommit acknowledged -> event at the receiver (poll interval {args.poll_interval}):")
    for name, s in (("sequential commits", result["delivery_latency_sequential"]),
                    ("one at a time", result["delivery_latency_one_at_a_time"])):
        if s:
            print(f"  {name:<20} n={s['n']:<4} p50 {s['p50_ms']} ms, p99 {s['p99_ms']} ms, "
                  f"max {s['max_ms']} ms (min {s['min_ms']} ms)")
    if alone and beside:
        a, b = result["healthy_alone"], result["healthy_beside_hanging"]
        print(f"\none healthy receiver, one commit at a time, alone and beside {args.hanging} "
              f"receivers that never answer:")
        for name, s in (("alone", a), (f"{args.hanging} hanging", b)):
            print(f"  {name:<20} n={s['n']:<4} p50 {s['p50_ms']} ms, p99 {s['p99_ms']} ms, "
                  f"max {s['max_ms']} ms")
        result["healthy_p99_ratio"] = round(b["p99_ms"] / a["p99_ms"], 2)
        print(f"  p99 beside / alone: {result['healthy_p99_ratio']} (goal: at most 2)")
    print(f"\nload average (1, 5, 15 min): start {loads['start']}, measured from "
          f"{loads['measured']}, end {loads['end']}; {result['machine']}")
    print(json.dumps(result))
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
