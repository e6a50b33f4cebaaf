"""Webhooks seen by a receiver written in Python (docs/events.md): a PyIceberg append reaches it
once, as a CloudEvent whose Standard Webhooks signature checks out with nothing but the standard
library, and a body changed on the way does not."""

import base64
import hashlib
import hmac
import http.server
import json
import threading
import time
import urllib.request

import pyarrow as pa

import readme

NAMESPACE = "my-webhooks"


def verify(secret: str, headers, body: bytes) -> bool:
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = f"{headers['webhook-id']}.{headers['webhook-timestamp']}.".encode() + body
    expected = "v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    return any(hmac.compare_digest(expected, s) for s in headers["webhook-signature"].split())


class Receiver(http.server.BaseHTTPRequestHandler):
    received = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        Receiver.received.append((dict(self.headers), body))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


def management(floe, method: str, path: str, body=None) -> dict:
    request = urllib.request.Request(
        f"http://127.0.0.1:{floe.port}{path}", method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {floe.token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


def test_a_pyiceberg_append_reaches_a_python_receiver_once_and_signed(floe):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        catalog = readme.pyiceberg_catalog(floe)
        catalog.create_namespace(NAMESPACE)
        created = management(floe, "POST", f"/orgs/{floe.warehouse}/subscriptions", {
            "url": f"http://127.0.0.1:{server.server_address[1]}/hook",
            "namespace": NAMESPACE, "operations": ["table.commit"]})
        secret = created["secret"]
        rows = pa.table({"id": pa.array([1, 2, 3], pa.int64())})
        table = catalog.create_table(f"{NAMESPACE}.appended", schema=rows.schema)
        table.append(rows)
        snapshot = catalog.load_table(f"{NAMESPACE}.appended").current_snapshot()

        deadline = time.monotonic() + 60
        while not Receiver.received and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(Receiver.received) == 1
        headers, body = Receiver.received[0]
        headers = {name.lower(): value for name, value in headers.items()}
        assert headers["content-type"] == "application/cloudevents+json"
        assert verify(secret, headers, body)
        assert not verify(secret, headers, body.replace(b"appended", b"appendex"))
        event = json.loads(body)
        assert event["specversion"] == "1.0"
        assert event["type"] == "io.floe.table.commit"
        assert event["id"] == headers["webhook-id"]
        assert event["data"]["details"]["snapshot_id"] == snapshot.snapshot_id
        shown = management(floe, "GET", f"/orgs/{floe.warehouse}/subscriptions/"
                           f"{created['subscription']['id']}")
        assert [d["event_id"] for d in shown["deliveries"]] == [event["id"]]
    finally:
        server.shutdown()
