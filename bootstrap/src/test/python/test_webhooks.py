"""Webhooks seen by a receiver written in Python (docs/events.md): a PyIceberg append reaches it
once, as a CloudEvent whose Standard Webhooks signature checks out with nothing but the standard
library, and a body changed on the way does not. A server killed while its receiver is down
delivers every committed event, with its id, once it runs again."""

import json
import time

import pyarrow as pa

import readme
from change_feed import Receiver, management, subscribed, verify
from conftest import serve

NAMESPACE = "my-webhooks"


def test_a_pyiceberg_append_reaches_a_python_receiver_once_and_signed(floe):
    catalog = readme.pyiceberg_catalog(floe)
    catalog.create_namespace(NAMESPACE)
    with subscribed(floe, NAMESPACE) as subscription:
        rows = pa.table({"id": pa.array([1, 2, 3], pa.int64())})
        table = catalog.create_table(f"{NAMESPACE}.appended", schema=rows.schema)
        table.append(rows)
        snapshot = catalog.load_table(f"{NAMESPACE}.appended").current_snapshot()

        subscription.receiver.wait_until(lambda event: True)
        received = subscription.receiver.received
        assert len(received) == 1
        headers, body = received[0]
        assert headers["content-type"] == "application/cloudevents+json"
        assert verify(subscription.secret, headers, body)
        assert not verify(subscription.secret, headers, body.replace(b"appended", b"appendex"))
        event = json.loads(body)
        assert event["specversion"] == "1.0"
        assert event["type"] == "io.floe.table.commit"
        assert event["id"] == headers["webhook-id"]
        assert event["data"]["details"]["snapshot_id"] == snapshot.snapshot_id
        # The server records the attempt once the receiver has answered: a moment after the
        # receiver has the event.
        deadline = time.monotonic() + 30
        while True:
            shown = management(floe, "GET", f"/orgs/{floe.warehouse}/subscriptions/"
                               f"{subscription.id}")
            if shown["deliveries"] or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert [d["event_id"] for d in shown["deliveries"]] == [event["id"]]


def test_events_pending_when_the_server_is_killed_arrive_after_it_restarts(tmp_path):
    data = tmp_path / "killed"
    receiver = Receiver()
    receiver.failing = True
    namespace = "killed-hooks"
    try:
        with serve(data) as floe:
            catalog = readme.pyiceberg_catalog(floe)
            catalog.create_namespace(namespace)
            management(floe, "POST", f"/orgs/{floe.warehouse}/subscriptions",
                       {"url": receiver.url, "namespace": namespace,
                        "operations": ["table.commit"]})
            table = catalog.create_table(f"{namespace}.pending",
                                         schema=pa.schema([("id", pa.int64())]))
            for i in range(3):
                table.append(pa.table({"id": pa.array([i], pa.int64())}))
            committed = [event["id"] for event in management(
                floe, "GET", f"/orgs/{floe.warehouse}/events?limit=100&action=table.commit")
                ["events"]]
            assert len(committed) == 3
            deadline = time.monotonic() + 60
            while receiver.refused == 0:  # a delivery was tried, and failed
                assert time.monotonic() < deadline, "no delivery was attempted"
                time.sleep(0.05)
            floe.kill()

        receiver.failing = False
        with serve(data):
            events = receiver.wait_until(lambda event: event["id"] == committed[-1],
                                         timeout=120)
        first_seen = list(dict.fromkeys(event["id"] for event in events))
        assert first_seen == committed, (first_seen, committed)
    finally:
        receiver.close()
