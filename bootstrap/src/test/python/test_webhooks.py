"""Webhooks seen by a receiver written in Python (docs/events.md): a PyIceberg append reaches it
once, as a CloudEvent whose Standard Webhooks signature checks out with nothing but the standard
library, and a body changed on the way does not."""

import json

import pyarrow as pa

import readme
from change_feed import management, subscribed, verify

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
        shown = management(floe, "GET", f"/orgs/{floe.warehouse}/subscriptions/"
                           f"{subscription.id}")
        assert [d["event_id"] for d in shown["deliveries"]] == [event["id"]]
