"""The storage fault soak: PyIceberg appends through Floe to a table on moto (S3) behind a proxy
on loopback that answers 10% of Floe's object requests with 503 SlowDown, forwards 5% of its
PUTs and loses the answer, delays 10% by 1.5 s, and then stops answering the bucket at all for
20 s (an outage). A probe commits through the REST API meanwhile and times every answer. At the
end the server must be ready, every acknowledged append and probe commit must read back, and no
answer may be a 5xx other than 503. Prints the figures as JSON; exits non-zero on a failure.

    python bench/storage_soak.py --minutes 2
"""

import argparse
import contextlib
import json
import logging
import pathlib
import random
import socket
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]
                       / "bootstrap" / "src" / "test" / "python"))
import boto3  # noqa: E402
import pyarrow as pa  # noqa: E402
from moto.server import ThreadedMotoServer  # noqa: E402
from pyiceberg.catalog.rest import RestCatalog  # noqa: E402

from conftest import serve, _free_port  # noqa: E402

BUCKET = "soak-lake"
ROLE = "arn:aws:iam::123456789012:role/floe-tables"
KEY, SECRET = "floe-server-key", "floe-server-secret"
OUTAGE_SECONDS = 20


class FaultProxy:
    """HTTP/1.1 proxy in front of moto. Faults hit the server's own object requests (its AWS
    SDK's User-Agent, a path in the bucket), so the engine's data files are written as usual;
    during the outage every request to the bucket hangs until the outage ends."""

    def __init__(self, upstream_port: int):
        self.upstream_port = upstream_port
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(128)
        self.port = self.server.getsockname()[1]
        self.outage = threading.Event()
        self.healed = threading.Event()
        self.lock = threading.Lock()
        self.counts = {"requests": 0, "slow_down": 0, "lost_answers": 0, "slow": 0, "hung": 0}
        self.random = random.Random(7)
        threading.Thread(target=self._accept, daemon=True).start()

    def count(self, what):
        with self.lock:
            self.counts[what] += 1

    def _accept(self):
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client):
        try:
            self._exchange(client)
        except OSError:
            pass  # the client gave up (its timeout) or went away: as with a real store

    def _exchange(self, client):
        with client:
            reader = client.makefile("rb")
            while True:
                head = b""
                while not head.endswith(b"\r\n\r\n"):
                    line = reader.readline()
                    if not line:
                        return
                    head += line
                lines = head.decode("latin-1").split("\r\n")
                request_line, headers = lines[0], [h for h in lines[1:] if h]
                names = {h.split(":", 1)[0].strip().lower(): h.split(":", 1)[1].strip()
                         for h in headers}
                if names.get("expect", "").lower() == "100-continue":
                    client.sendall(b"HTTP/1.1 100 Continue\r\n\r\n")
                body = b""
                if names.get("transfer-encoding", "").lower() == "chunked":
                    while True:
                        size_line = reader.readline()
                        body += size_line
                        size = int(size_line.split(b";")[0].strip() or b"0", 16)
                        if size == 0:
                            while True:
                                trailer = reader.readline()
                                body += trailer
                                if trailer in (b"\r\n", b""):
                                    break
                            break
                        body += reader.read(size + 2)
                else:
                    body = reader.read(int(names.get("content-length", "0")))
                forwarded = [h for h in headers if h.split(":", 1)[0].strip().lower()
                             not in ("connection", "expect")]
                out = (request_line + "\r\n" + "".join(h + "\r\n" for h in forwarded)
                       + "Connection: close\r\n\r\n").encode("latin-1") + body
                path = request_line.split(" ")[1]
                in_bucket = path.startswith("/" + BUCKET)
                self.count("requests")
                if in_bucket and self.outage.is_set():
                    self.count("hung")
                    self.healed.wait()
                    return
                ours = in_bucket and "aws-sdk-java" in names.get("user-agent", "")
                roll = self.random.random() if ours else 1.0
                if roll < 0.10:
                    self.count("slow_down")
                    error = (b"<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>SlowDown"
                             b"</Code><Message>Please reduce your request rate.</Message></Error>")
                    client.sendall(b"HTTP/1.1 503 Slow Down\r\nContent-Type: application/xml\r\n"
                                   b"Content-Length: " + str(len(error)).encode() + b"\r\n\r\n"
                                   + error)
                    continue
                if roll < 0.20:
                    self.count("slow")
                    time.sleep(1.5)
                answer = self._forward(out)
                if 0.20 <= roll < 0.25 and request_line.startswith("PUT "):
                    self.count("lost_answers")
                    return  # the store did it; the server never hears
                client.sendall(answer)
                if b"\r\nconnection: close" in answer.split(b"\r\n\r\n", 1)[0].lower():
                    return

    def _forward(self, request: bytes) -> bytes:
        with socket.create_connection(("127.0.0.1", self.upstream_port)) as upstream:
            upstream.sendall(request)
            chunks = []
            while True:
                chunk = upstream.recv(65536)
                if not chunk:
                    return b"".join(chunks)
                chunks.append(chunk)


def call(floe, method, path, body=None, base=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request((base or f"http://127.0.0.1:{floe.port}") + path, data=data,
                                     method=method)
    request.add_header("Authorization", f"Bearer {floe.token}")
    request.add_header("Content-Type", "application/json")
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            text = response.read()
            status, headers = response.status, response.headers
    except urllib.error.HTTPError as error:
        text = error.read()
        status, headers = error.code, error.headers
    return status, (json.loads(text) if text else None), headers, time.monotonic() - started


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--minutes", type=float, default=2.0)
    args = parser.parse_args()
    faulty_seconds = max(30.0, args.minutes * 60 - OUTAGE_SECONDS)

    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # moto's request log
    moto = ThreadedMotoServer(ip_address="127.0.0.1", port=_free_port(), verbose=False)
    moto.start()
    moto_host, moto_port = moto.get_host_and_port()
    boto3.client("s3", endpoint_url=f"http://{moto_host}:{moto_port}", region_name="us-east-1",
                 aws_access_key_id=KEY, aws_secret_access_key=SECRET).create_bucket(Bucket=BUCKET)
    proxy = FaultProxy(moto_port)
    figures = {}
    failures = []
    with tempfile.TemporaryDirectory() as work, \
            contextlib.ExitStack() as stack:
        data = pathlib.Path(work) / "floe-data"
        data.mkdir()
        floe = stack.enter_context(serve(data))
        status, body, _, _ = call(floe, "POST", f"/orgs/{floe.warehouse}/buckets", {
            "nickname": BUCKET, "platform": "s3-compatible", "name": BUCKET,
            "endpoint": f"http://127.0.0.1:{proxy.port}", "region": "us-east-1",
            "path_style": True, "auth": {"method": "static", "access_key_id": KEY,
                                         "secret_access_key": SECRET, "role_arn": ROLE}})
        assert status == 201, body
        catalog = RestCatalog("floe", uri=floe.uri, warehouse=floe.warehouse, token=floe.token)
        catalog.create_namespace("soak", {"floe.bucket": BUCKET})
        schema = pa.schema([pa.field("id", pa.int64(), nullable=False)])
        table = None
        while table is None:  # the faults are on from the start
            try:
                table = catalog.create_table("soak.rows", schema=schema)
            except Exception:  # noqa: BLE001 - a 503 of the faults: try again
                time.sleep(0.5)

        stop = threading.Event()
        outage_window = [None, None]
        statuses = {}
        probe_acked = []
        times = {"max": 0.0, "max_in_outage": 0.0}
        lock = threading.Lock()

        def probe():
            n = 0
            path = f"/v1/{floe.warehouse}/namespaces/soak/tables/rows"
            while not stop.is_set():
                n += 1
                status, body, headers, took = call(floe, "POST", path, {
                    "requirements": [], "updates": [{"action": "set-properties",
                                                     "updates": {f"probe-{n}": "1"}}]},
                    base=floe.uri)
                with lock:
                    statuses[status] = statuses.get(status, 0) + 1
                    times["max"] = max(times["max"], took)
                    if outage_window[0] and not outage_window[1]:
                        times["max_in_outage"] = max(times["max_in_outage"], took)
                if status == 200:
                    probe_acked.append(n)
                elif status == 503:
                    if headers.get("Retry-After") is None:
                        failures.append(f"a 503 without Retry-After: {body}")
                    if BUCKET not in json.dumps(body):
                        failures.append(f"a 503 not naming the bucket: {body}")
                elif status >= 500:
                    failures.append(f"probe commit {n} answered {status}: {body}")
                time.sleep(0.05)

        prober = threading.Thread(target=probe, daemon=True)
        prober.start()
        acked, attempts, errors = [], 0, {}
        next_id = 0
        end = time.monotonic() + faulty_seconds + OUTAGE_SECONDS
        outage_at = time.monotonic() + faulty_seconds
        while time.monotonic() < end:
            if not proxy.outage.is_set() and time.monotonic() >= outage_at:
                outage_window[0] = time.monotonic()
                proxy.outage.set()
            next_id += 1
            attempts += 1
            try:
                table = catalog.load_table("soak.rows")
                table.append(pa.table({"id": [next_id]}, schema=schema))
                acked.append(next_id)
            except Exception as error:  # noqa: BLE001 - counted; not acknowledged
                errors[type(error).__name__] = errors.get(type(error).__name__, 0) + 1
                time.sleep(0.2)
        proxy.healed.set()
        proxy.outage.clear()
        outage_window[1] = time.monotonic()
        time.sleep(3)
        stop.set()
        prober.join(timeout=120)

        status, _, _, _ = call(floe, "GET", "/ready")
        if status != 200:
            failures.append(f"/ready answered {status} after the soak")
        final = catalog.load_table("soak.rows")
        read_back = set(final.scan().to_arrow().column("id").to_pylist())
        missing = sorted(set(acked) - read_back)
        if missing:
            failures.append(f"acknowledged appends not read back: {missing[:20]}")
        properties = final.properties
        lost_probes = [n for n in probe_acked if f"probe-{n}" not in properties]
        if lost_probes:
            failures.append(f"acknowledged probe commits not read back: {lost_probes[:20]}")
        figures = {
            "minutes": args.minutes,
            "proxy": dict(proxy.counts),
            "appends": {"attempted": attempts, "acknowledged": len(acked),
                        "read_back": len(read_back & set(acked)), "errors": errors},
            "probe_commits": {"answers": {str(k): v for k, v in sorted(statuses.items())},
                              "acknowledged": len(probe_acked),
                              "read_back": len(probe_acked) - len(lost_probes),
                              "max_seconds": round(times["max"], 2),
                              "max_seconds_during_outage": round(times["max_in_outage"], 2)},
            "ready_after": status == 200,
            "failures": failures,
        }
    moto.stop()
    print(json.dumps(figures, indent=2))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
