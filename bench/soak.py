#!/usr/bin/env python3
"""Hostile traffic mixed with normal traffic against one Floe server, PostgreSQL restarted mid-run.

Run by bench/soak.sh (and, shortened, by the test suite's SoakIT); Python's standard library only.
Normal clients create tables, commit (each commit sets a property of its own, so it can be looked
for afterwards), commit two tables in one transaction, load and list. Hostile clients send slow
bodies, deep schemas, bad tokens, malformed bodies, fuzzed paths and abuse the remote signer.
PostgreSQL is restarted while all of them run. At the end the run is judged:

  * the server is healthy: /health and /ready answer 200, and /health answered within
    PROBE_TIMEOUT every time it was asked during the run;
  * no 5xx other than a 503 to a request that was in flight during a PostgreSQL restart (or
    within GRACE_SECONDS after it); every 429 and 503 carries Retry-After;
  * every acknowledged commit (200; 204 for a transaction) is in its table, and no commit
    answered 503 is;
  * no hostile request is accepted (2xx) where it must be refused, and none is left unanswered.

Prints a summary and writes every finding as JSON lines; exits 1 if any rule was broken.
"""

import argparse
import base64
import http.client
import json
import random
import socket
import string
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
import uuid

GRACE_SECONDS = 25        # a request may wait 10 s for a connection, and is tried twice
PROBE_TIMEOUT = 5
REQUEST_TIMEOUT = 60
SLOW_CONNECTIONS = 40     # trickling bodies held open at once
HOSTILE_KINDS = ("slow-bodies", "deep-schemas", "bad-tokens", "malformed-bodies",
                 "fuzzed-paths", "signer")


class Run:
    """What every client saw, and the restarts."""

    def __init__(self, args):
        self.args = args
        self.lock = threading.Lock()
        self.results = []          # (kind, op, status, start, end, retry_after, detail)
        self.restarts = []         # (start, end)
        self.acknowledged = {}     # table path -> set of property keys answered 200
        self.refused = {}          # table path -> set of property keys answered 503
        self.stop = threading.Event()

    def record(self, kind, op, status, start, end, retry_after=None, detail=""):
        with self.lock:
            self.results.append((kind, op, status, start, end, retry_after, detail))

    def in_outage(self, start, end):
        with self.lock:
            return any(start <= r_end + GRACE_SECONDS and end >= r_start
                       for r_start, r_end in self.restarts)


class Http:
    """One request per connection, so that each is answered or refused on its own."""

    def __init__(self, host, port):
        self.host, self.port = host, port

    def send(self, method, path, token=None, body=None, headers=None, timeout=REQUEST_TIMEOUT):
        all_headers = dict(headers or {})
        if token is not None:
            all_headers.setdefault("Authorization", "Bearer " + token)
        if body is not None and not isinstance(body, bytes):
            body = json.dumps(body).encode()
        if body is not None:
            all_headers.setdefault("Content-Type", "application/json")
        connection = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        try:
            connection.putrequest(method, path, skip_accept_encoding=True)
            for name, value in all_headers.items():
                connection.putheader(name, value)
            if body is not None:
                connection.putheader("Content-Length", str(len(body)))
            connection.endheaders(body)
            response = connection.getresponse()
            payload = response.read()
            return response.status, response.getheader("Retry-After"), payload
        except (OSError, http.client.HTTPException) as e:
            return 0, None, str(e).encode()
        finally:
            connection.close()


class Floe:
    def __init__(self, run, http_, org, token):
        self.run, self.http, self.org, self.token = run, http_, org, token

    def iceberg(self, path):
        return "/iceberg/v1/" + self.org + path

    def timed(self, kind, op, method, path, token=None, body=None, headers=None):
        start = time.time()
        status, retry_after, payload = self.http.send(method, path, token, body, headers)
        end = time.time()
        detail = payload[:300].decode("utf-8", "replace") if status >= 500 or status == 0 else ""
        self.run.record(kind, op, status, start, end, retry_after, detail)
        return status, payload


SCHEMA = {"type": "struct", "schema-id": 0,
          "fields": [{"id": 1, "name": "x", "required": False, "type": "long"}]}


def commit_body(key):
    return {"requirements": [], "updates": [
        {"action": "set-properties", "updates": {key: "acknowledged"}}]}


def normal_client(floe, run, number):
    """Creates its tables, commits to them (one property per commit), loads and lists."""
    rng = random.Random(number)
    tables = []
    sequence = 0

    def create():
        name = "c%d_t%d" % (number, len(tables))
        status, _ = floe.timed("normal", "create", "POST", floe.iceberg("/namespaces/soak/tables"),
                               floe.token, {"name": name, "schema": SCHEMA})
        if status == 200:
            path = floe.iceberg("/namespaces/soak/tables/" + name)
            tables.append(path)
            with run.lock:
                run.acknowledged.setdefault(path, set())
                run.refused.setdefault(path, set())

    def note(path, key, status, ok=200):
        with run.lock:
            if status == ok:
                run.acknowledged[path].add(key)
            elif status == 503:
                run.refused[path].add(key)

    while not run.stop.is_set():
        if not tables or (sequence and sequence % 40 == 0 and len(tables) < 8):
            create()
            if not tables:
                time.sleep(0.5)
                continue
        sequence += 1
        choice = rng.random()
        if choice < 0.55:
            path = rng.choice(tables)
            key = "c%d-%d" % (number, sequence)
            status, _ = floe.timed("normal", "commit", "POST", path, floe.token, commit_body(key))
            note(path, key, status)
        elif choice < 0.65 and len(tables) >= 2:
            first, second = rng.sample(tables, 2)
            key = "c%d-%d" % (number, sequence)
            changes = [dict(commit_body(key), identifier={
                "namespace": ["soak"], "name": path.rsplit("/", 1)[1]}) for path in (first, second)]
            status, _ = floe.timed("normal", "transaction", "POST",
                                   floe.iceberg("/transactions/commit"), floe.token,
                                   {"table-changes": changes})
            note(first, key, status, ok=204)
            note(second, key, status, ok=204)
        elif choice < 0.85:
            floe.timed("normal", "load", "GET", rng.choice(tables), floe.token)
        else:
            floe.timed("normal", "list", "GET", rng.choice([
                floe.iceberg("/namespaces"), floe.iceberg("/namespaces/soak/tables"),
                "/orgs/%s/iceberg/namespaces" % floe.org]), floe.token)


def prober(floe, run):
    """/health every second: it must answer within PROBE_TIMEOUT, whatever else happens."""
    while not run.stop.wait(1):
        start = time.time()
        status, _, _ = floe.http.send("GET", "/health", timeout=PROBE_TIMEOUT)
        run.record("probe", "health", status, start, time.time())


def slow_bodies(floe, run):
    """Connections that announce a body and send it a byte at a time, most without a token."""
    rng = random.Random(7)
    targets = [floe.iceberg("/namespaces"), floe.iceberg("/namespaces/soak/tables/x"),
               "/orgs/%s/namespaces" % floe.org, "/ui/sign-in", "/no/such/route"]
    open_ = []

    def answered(entry):
        sock, op, start = entry
        try:
            data = sock.recv(8192, socket.MSG_DONTWAIT)
        except (BlockingIOError, InterruptedError):
            return False
        except OSError:
            data = b""
        status = 0
        retry_after = None
        if data.startswith(b"HTTP/1.1 "):
            status = int(data[9:12])
            head = data.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")[1:]
            for line in head:
                name, _, value = line.partition(":")
                if name.strip().lower() == "retry-after":
                    retry_after = value.strip()
        run.record("slow-bodies", op, status if status else -1, start, time.time(), retry_after)
        sock.close()
        return True

    while not run.stop.is_set():
        while len(open_) < SLOW_CONNECTIONS:
            with_token = rng.random() < 0.2
            target = rng.choice(targets)
            try:
                sock = socket.create_connection((floe.http.host, floe.http.port), timeout=5)
            except OSError:
                run.stop.wait(1)
                continue
            sock.settimeout(None)  # blocking, so that MSG_DONTWAIT reads say "nothing yet"
            head = "POST %s HTTP/1.1\r\nHost: soak\r\nContent-Length: 100000\r\n" % target
            head += "Content-Type: application/json\r\n"
            if with_token:
                head += "Authorization: Bearer %s\r\n" % floe.token
            sock.sendall((head + "\r\n").encode())
            open_.append((sock, "token" if with_token else "anonymous", time.time()))
        for entry in list(open_):
            if answered(entry):
                open_.remove(entry)
                continue
            sock, op, start = entry
            if time.time() - start > REQUEST_TIMEOUT:
                run.record("slow-bodies", op, 0, start, time.time(), None,
                           "held for %d s without an answer" % REQUEST_TIMEOUT)
                sock.close()
                open_.remove(entry)
                continue
            try:
                sock.send(b"{")
            except OSError:
                pass  # answered and closed: the next round reads the answer
        run.stop.wait(0.5)
    for sock, _, _ in open_:
        sock.close()


def deep_schema():
    """A schema of 850 nested lists around a depth-14 tree of maps: about 1.7 MB of JSON."""
    ids = iter(range(1, 10_000_000))

    def tree(depth):
        if depth == 0:
            return "long"
        return {"type": "struct", "fields": [
            {"id": next(ids), "name": name, "required": False,
             "type": {"type": "map", "key-id": next(ids), "key": "string",
                      "value-id": next(ids), "value": tree(depth - 1), "value-required": False}}
            for name in ("a", "b")]}

    inner = tree(14)
    for _ in range(850):
        inner = {"type": "list", "element-id": next(ids), "element": inner,
                 "element-required": False}
    return {"type": "struct", "schema-id": 0,
            "fields": [{"id": next(ids), "name": "deep", "required": False, "type": inner}]}


def deep_schemas(floe, run):
    body = json.dumps({"name": "deep", "schema": deep_schema()}).encode()
    n = 0
    while not run.stop.wait(20):
        n += 1
        floe.timed("deep-schemas", "create", "POST", floe.iceberg("/namespaces/soak/tables"),
                   floe.token, body.replace(b'"deep"', b'"deep%d"' % n, 1))


def bad_tokens(floe, run):
    rng = random.Random(3)
    headers = [lambda: "Bearer " + "".join(rng.choices(string.ascii_letters, k=40)),
               lambda: "Bearer ema_" + uuid.uuid4().hex, lambda: "Bearer ",
               lambda: "Basic " + base64.b64encode(b"admin:admin").decode(),
               lambda: "Bearer " + "x" * 6000, lambda: "Bearer eyJhbGciOiJub25lIn0.e30."]
    paths = [floe.iceberg("/namespaces"), "/iceberg/v1/config?warehouse=" + floe.org,
             "/orgs/%s/buckets" % floe.org, floe.iceberg("/namespaces/soak/tables")]
    while not run.stop.wait(0.2):
        method = rng.choice(["GET", "POST"])
        floe.timed("bad-tokens", method, method, rng.choice(paths),
                   headers={"Authorization": rng.choice(headers)()},
                   body=b'{"namespace": ["stolen"]}' if method == "POST" else None)


def malformed_bodies(floe, run):
    rng = random.Random(5)
    # Broken for every route: not JSON, not UTF-8, text Floe cannot keep, nesting too deep, or
    # a top level of the wrong kind.
    bodies = [b"{", b'{"a":', b"[]", b"5", b'"x"', b'{"name": "a\\u0000b", "namespace": 1}',
              b'{"name": "\xff\xfe", "namespace": ["\xc0"]}',
              b'{"namespace": [' + b"[" * 5000 + b"]" * 5000 + b"]}",
              b'{"updates": [{"action": "set-properties", "updates": {"k": "\\ud800"}}]}',
              b"\x00", b"{}" + b" " * 10 + b"}"]
    paths = [floe.iceberg("/namespaces"), floe.iceberg("/namespaces/soak/tables"),
             floe.iceberg("/namespaces/soak/tables/target"), floe.iceberg("/transactions/commit"),
             "/orgs/%s/iceberg/namespaces" % floe.org]
    while not run.stop.wait(0.2):
        number = rng.randrange(len(bodies))
        path = rng.choice(paths)
        floe.timed("malformed-bodies", "body %d to %s" % (number, path.rsplit("/", 1)[1]), "POST",
                   path, floe.token, bodies[number])


def fuzzed_paths(floe, run):
    rng = random.Random(11)
    pieces = ["soak", "%00", "%2e%2e", "..", "%zz", "%ff%fe", "\u00e9".encode().hex(), "a" * 300,
              "%2F", "tables", "namespaces", "views", "target", "%u2028", "~", "%25", "metrics",
              "%e2%80%a8", "sign", "credentials", "plan", "1e9", "-1"]
    prefixes = ["/iceberg/v1/" + floe.org, "/orgs/" + floe.org, "/ui/orgs/" + floe.org, "",
                "/iceberg/v1", "/repos/" + floe.org]
    while not run.stop.wait(0.1):
        segments = [rng.choice(pieces) for _ in range(rng.randint(1, 6))]
        path = rng.choice(prefixes) + "/" + "/".join(segments)
        if rng.random() < 0.3:
            path += "?pageToken=" + rng.choice(["AA", "%00", "////", "x" * 100]) + \
                    "&pageSize=" + rng.choice(["-1", "0", "99999999999", "a"])
        method = rng.choice(["GET", "GET", "POST", "DELETE", "HEAD", "PUT"])
        floe.timed("fuzzed-paths", method, method, path, floe.token,
                   b"{}" if method in ("POST", "PUT") else None)


def signer(floe, run):
    rng = random.Random(13)
    table = floe.iceberg("/namespaces/soak/tables/target")
    keys = ["../other/metadata/victim.json", "other-namespace/t/metadata/v.json", "", "/",
            "%2e%2e/%2e%2e/x", "target/../../x"]
    while not run.stop.wait(0.5):
        key = rng.choice(keys)
        delete_body = "<Delete><Object><Key>%s</Key></Object></Delete>" % key
        request = {"region": "us-east-1", "method": rng.choice(["GET", "PUT", "DELETE", "POST"]),
                   "uri": "https://bucket.s3.us-east-1.amazonaws.com/%s%s" % (
                       key, "?delete" if rng.random() < 0.5 else ""),
                   "headers": {"Content-MD5": [base64.b64encode(b"0" * 16).decode()],
                               "x-amz-content-sha256": ["UNSIGNED-PAYLOAD"]},
                   "properties": {}, "body": delete_body}
        floe.timed("signer", "sign", "POST", table + "/sign", floe.token, request)


HOSTILE = {"slow-bodies": slow_bodies, "deep-schemas": deep_schemas, "bad-tokens": bad_tokens,
           "malformed-bodies": malformed_bodies, "fuzzed-paths": fuzzed_paths, "signer": signer}


def restart_postgres(run, number):
    args = run.args
    start = time.time()
    if args.restart_url:
        request = urllib.request.Request(args.restart_url, data=str(number).encode(),
                                         method="POST")
        urllib.request.urlopen(request, timeout=120).read()
    else:
        subprocess.run(args.restart_command + " " + str(number), shell=True, check=True)
    end = time.time()
    with run.lock:
        run.restarts.append((start, end))
    print("  PostgreSQL restart %d took %.1f s" % (number, end - start), flush=True)


# --- judging ---------------------------------------------------------------------------------

def allowed(run, kind, op, status, start, end):
    """None when the answer keeps the rules, else what is wrong with it."""
    if status == 503 and run.in_outage(start, end):
        return None
    if status >= 500:
        return "a %d" % status
    if status == 0:
        if kind == "normal" and run.in_outage(start, end):
            return None
        return "no answer"
    if kind == "probe":
        return None if status == 200 else "health answered %d" % status
    if kind == "normal":
        expected = 204 if op == "transaction" else 200
        return None if status == expected else "a normal request answered %d" % status
    if kind == "slow-bodies":
        return None if status == -1 or 400 <= status < 500 or status in (303,) else \
            "a slow body answered %d" % status
    if kind in ("deep-schemas", "bad-tokens", "malformed-bodies", "signer") and status < 300:
        return "hostile input accepted (%d)" % status
    return None


def judge(run, floe):
    problems = []
    for kind, op, status, start, end, retry_after, detail in run.results:
        problem = allowed(run, kind, op, status, start, end)
        if problem is None and status in (429, 503) and retry_after is None:
            problem = "a %d without Retry-After" % status
        if problem:
            problems.append({"kind": kind, "op": op, "status": status, "problem": problem,
                             "at": round(start - run.t0, 1), "took": round(end - start, 1),
                             "detail": detail})
    health, _, _ = floe.http.send("GET", "/health", timeout=PROBE_TIMEOUT)
    ready, _, _ = floe.http.send("GET", "/ready", timeout=PROBE_TIMEOUT)
    for name, status in (("/health", health), ("/ready", ready)):
        if status != 200:
            problems.append({"kind": "end", "op": name, "status": status,
                             "problem": "%s answers %d at the end" % (name, status)})
    missing = present = checked = 0
    for path in sorted(run.acknowledged):
        status, _, payload = floe.http.send("GET", path, floe.token)
        if status != 200:
            problems.append({"kind": "end", "op": "load " + path, "status": status,
                             "problem": "a table with acknowledged commits cannot be loaded"})
            continue
        properties = json.loads(payload)["metadata"].get("properties", {})
        checked += len(run.acknowledged[path])
        lost = sorted(run.acknowledged[path] - properties.keys())
        written = sorted(run.refused[path] & properties.keys())
        missing += len(lost)
        present += len(written)
        if lost:
            problems.append({"kind": "end", "op": path, "status": 200,
                             "problem": "%d acknowledged commit(s) missing: %s" % (
                                 len(lost), lost[:5])})
        if written:
            problems.append({"kind": "end", "op": path, "status": 200,
                             "problem": "%d commit(s) answered 503 were written: %s" % (
                                 len(written), written[:5])})
    return problems, checked, missing, present


def summarize(run, problems, checked, missing):
    counts = {}
    for kind, op, status, *_ in run.results:
        counts.setdefault(kind, {}).setdefault(status, 0)
        counts[kind][status] += 1
    print()
    print("%-17s %8s  answers by status" % ("client", "requests"))
    for kind in ["normal", "probe"] + list(HOSTILE):
        if kind in counts:
            by_status = counts[kind]
            text = ", ".join("%s: %d" % ("none" if s == 0 else "cut" if s == -1 else s, n)
                             for s, n in sorted(by_status.items()))
            print("%-17s %8d  %s" % (kind, sum(by_status.values()), text))
    print()
    print("restarts of PostgreSQL: %s" % ", ".join(
        "at %.0f s (%.1f s)" % (s - run.t0, e - s) for s, e in run.restarts))
    print("acknowledged commits checked: %d, missing: %d" % (checked, missing))
    by_kind = {}
    for problem in problems:
        by_kind.setdefault(problem["kind"], []).append(problem)
    if not problems:
        print("RESULT: pass (healthy, no 5xx but 503 during a restart, nothing acknowledged lost)")
        return
    print("RESULT: FAIL, %d finding(s):" % len(problems))
    for kind, found in by_kind.items():
        kinds = {}
        for problem in found:
            kinds.setdefault(problem["problem"], []).append(problem)
        for text, same in kinds.items():
            first = same[0]
            print("  %-16s %5d x %s  (first at %s s: %s %s)" % (
                kind, len(same), text, first.get("at", "end"), first["op"],
                first.get("detail", "")[:160].replace("\n", " ")))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", required=True, help="the server, e.g. http://127.0.0.1:8181")
    parser.add_argument("--org", required=True)
    parser.add_argument("--token", required=True, help="an admin token of the org")
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--clients", type=int, default=4, help="normal clients")
    parser.add_argument("--restarts", type=int, default=2)
    parser.add_argument("--restart-command", help="shell command that restarts PostgreSQL "
                        "(given the restart's number) and returns once it takes connections")
    parser.add_argument("--restart-url", help="or: a URL to POST to for the same")
    parser.add_argument("--without", default="", help="hostile kinds to leave out, comma-separated")
    parser.add_argument("--findings", help="write every finding here as JSON lines")
    args = parser.parse_args()
    if not (args.restart_command or args.restart_url) and args.restarts:
        parser.error("--restart-command or --restart-url is needed")
    left_out = {kind for kind in args.without.split(",") if kind}
    unknown = left_out - set(HOSTILE)
    if unknown:
        parser.error("unknown kinds: %s (known: %s)" % (", ".join(unknown), ", ".join(HOSTILE)))

    url = urllib.parse.urlparse(args.url)
    run = Run(args)
    floe = Floe(run, Http(url.hostname, url.port), args.org, args.token)
    status, _, payload = floe.http.send("POST", floe.iceberg("/namespaces"), args.token,
                                        {"namespace": ["soak"]})
    if status not in (200, 409):
        sys.exit("cannot create the namespace soak: %d %s" % (status, payload[:200]))
    # The table hostile clients aim at.
    floe.http.send("POST", floe.iceberg("/namespaces/soak/tables"), args.token,
                   {"name": "target", "schema": SCHEMA})

    run.t0 = time.time()
    print("soak: %d s, %d normal clients, hostile: %s, %d restart(s) of PostgreSQL" % (
        args.seconds, args.clients, ", ".join(k for k in HOSTILE if k not in left_out),
        args.restarts), flush=True)
    threads = [threading.Thread(target=normal_client, args=(floe, run, n), daemon=True)
               for n in range(args.clients)]
    threads.append(threading.Thread(target=prober, args=(floe, run), daemon=True))
    threads += [threading.Thread(target=work, args=(floe, run), daemon=True)
                for kind, work in HOSTILE.items() if kind not in left_out]
    for thread in threads:
        thread.start()
    for number in range(1, args.restarts + 1):
        at = run.t0 + args.seconds * number / (args.restarts + 1)
        run.stop.wait(max(0, at - time.time()))
        restart_postgres(run, number)
    run.stop.wait(max(0, run.t0 + args.seconds - time.time()))
    run.stop.set()
    for thread in threads:
        thread.join(REQUEST_TIMEOUT + 10)
    problems, checked, missing, _ = judge(run, floe)
    if args.findings:
        with open(args.findings, "w") as out:
            for problem in problems:
                out.write(json.dumps(problem) + "\n")
    summarize(run, problems, checked, missing)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
