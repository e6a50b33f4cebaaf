"""The change feed as the tests read it (docs/events.md): the Iceberg REST events endpoint, the
management API's subscriptions, and a webhook receiver on loopback that keeps every event it is
sent. `commits_seen` checks a table's commits on both at once: the events the pull endpoint
serves and those the receiver was sent must be the same events, in the same order."""

import base64
import contextlib
import hashlib
import hmac
import http.server
import json
import threading
import time
import urllib.request

TIMEOUT = 60


def query_events(floe, body: dict) -> dict:
    """One answer of `POST /iceberg/v1/{prefix}/events`."""
    request = urllib.request.Request(
        f"{floe.uri}/v1/{floe.warehouse}/events", data=json.dumps(body).encode(), method="POST",
        headers={"Authorization": f"Bearer {floe.token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status == 200
        return json.load(response)


def management(floe, method: str, path: str, body=None):
    """A call of the management API as the admin; its JSON answer (None for 204)."""
    request = urllib.request.Request(
        f"http://127.0.0.1:{floe.port}{path}", method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {floe.token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response) if response.status != 204 else None


def verify(secret: str, headers, body: bytes) -> bool:
    """The Standard Webhooks signature check, with nothing but the standard library."""
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = f"{headers['webhook-id']}.{headers['webhook-timestamp']}.".encode() + body
    expected = "v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    return any(hmac.compare_digest(expected, s) for s in headers["webhook-signature"].split())


class Receiver:
    """A webhook receiver on a free loopback port that acknowledges (204) and keeps every POST:
    `received` holds (headers with lower-case names, body) in the order they came. While
    `failing`, it answers 503 and keeps nothing (`refused` counts those)."""

    def __init__(self):
        self.received = []
        self.refused = 0
        self.failing = False
        received = self.received
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                if receiver.failing:  # a receiver that is down: nothing is kept
                    receiver.refused += 1
                    self.send_response(503)
                    self.end_headers()
                    return
                received.append(({k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def events(self) -> list[dict]:
        return [json.loads(body) for _, body in list(self.received)]

    def wait_until(self, done, timeout: float = TIMEOUT) -> list[dict]:
        """The events received, once `done` (a test of one event) holds for one of them."""
        deadline = time.monotonic() + timeout
        while True:
            events = self.events()
            if any(done(event) for event in events):
                return events
            assert time.monotonic() < deadline, f"no such event reached the receiver: {events}"
            time.sleep(0.05)

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class Subscription:
    def __init__(self, receiver: Receiver, created: dict):
        self.receiver = receiver
        self.id = created["subscription"]["id"]
        self.secret = created["secret"]


@contextlib.contextmanager
def subscribed(floe, namespace: str, table: str | None = None,
               operations=("table.commit",)):
    """A receiver with a subscription of the admin's to `namespace` (and `table`), deleted at the
    end. It is sent what commits after this starts."""
    receiver = Receiver()
    body = {"url": receiver.url, "namespace": namespace, "operations": list(operations)}
    if table is not None:
        body["table"] = table
    try:
        created = management(floe, "POST", f"/orgs/{floe.warehouse}/subscriptions", body)
        try:
            yield Subscription(receiver, created)
        finally:
            management(floe, "DELETE", f"/orgs/{floe.warehouse}/subscriptions/"
                       f"{created['subscription']['id']}")
    finally:
        receiver.close()


def end_of_feed(floe, namespace: str) -> str:
    """A continuation token past every event of `namespace` served now."""
    body = {"catalog-objects-by-name": [[namespace]], "page-size": 1000}
    while True:
        page = query_events(floe, body)
        body["continuation-token"] = page["continuation-token"]
        if not page["events"]:
            return page["continuation-token"]


def pulled_commits(floe, token: str, namespace: str, table: str, done,
                   timeout: float = TIMEOUT) -> list[dict]:
    """The `update-table` events of `namespace.table` after `token`, every page of them, once
    `done` (a test of an event's `x-floe-details`) holds for one of them."""
    deadline = time.monotonic() + timeout
    while True:
        body = {"continuation-token": token, "operation-types": ["update-table"],
                "catalog-objects-by-name": [[namespace, table]]}
        events = []
        while True:
            page = query_events(floe, body)
            events += page["events"]
            if not page["events"]:
                break
            body["continuation-token"] = page["continuation-token"]
        if any(done(event["x-floe-details"]) for event in events):
            return events
        assert time.monotonic() < deadline, f"no such event was served: {events}"
        time.sleep(0.05)


def commits_seen(floe, subscription: Subscription, token: str, namespace: str, table: str,
                 last) -> list[dict]:
    """The details of the commits of `namespace.table` after `token`, oldest first, once the one
    `last` (a test of a commit's details) picks is among them, as the pull endpoint serves them.
    The subscription's receiver must have been sent the very same events (same ids, same
    details), in the same order, each signed with the subscription's secret. Both sides list
    every event before the last one too: the feed and its deliveries are in commit order."""
    pulled = pulled_commits(floe, token, namespace, table, last)
    delivered = subscription.receiver.wait_until(lambda event: last(event["data"]["details"]))
    assert [event["id"] for event in delivered] == [event["event-id"] for event in pulled]
    for event in pulled:
        assert event["identifier"] == {"namespace": [namespace], "name": table}
    for (headers, body), event, served in zip(subscription.receiver.received, delivered, pulled):
        assert verify(subscription.secret, headers, body)
        assert event["type"] == "io.floe.table.commit"
        assert event["subject"] == f"table/{namespace}.{table}"
        assert event["data"]["details"] == served["x-floe-details"]
    return [event["x-floe-details"] for event in pulled]
