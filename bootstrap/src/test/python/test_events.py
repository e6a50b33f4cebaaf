"""The change feed seen by an engine's user: a PyIceberg append is one `update-table` event on
the Iceberg REST events endpoint (docs/events.md), carrying the snapshot the append made."""

import json
import urllib.request

import pyarrow as pa

import readme

NAMESPACE = "my-events"


def query_events(floe, body: dict) -> dict:
    request = urllib.request.Request(
        f"{floe.uri}/v1/{floe.warehouse}/events", data=json.dumps(body).encode(), method="POST",
        headers={"Authorization": f"Bearer {floe.token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status == 200
        return json.load(response)


def test_a_pyiceberg_append_is_one_commit_event_with_its_snapshot(floe):
    catalog = readme.pyiceberg_catalog(floe)
    catalog.create_namespace(NAMESPACE)
    rows = pa.table({"id": pa.array([1, 2, 3], pa.int64())})
    table = catalog.create_table(f"{NAMESPACE}.appended", schema=rows.schema)
    table.append(rows)
    snapshot = catalog.load_table(f"{NAMESPACE}.appended").current_snapshot()

    page = query_events(floe, {"operation-types": ["update-table"],
                               "catalog-objects-by-name": [[NAMESPACE, "appended"]]})

    commits = page["events"]
    assert len(commits) == 1
    event = commits[0]
    assert event["identifier"] == {"namespace": [NAMESPACE], "name": "appended"}
    assert event["x-floe-details"]["snapshot_id"] == snapshot.snapshot_id
    added = event["x-floe-details"]["added_snapshots"]
    assert [s["snapshot_id"] for s in added] == [snapshot.snapshot_id]
    assert added[0]["summary"]["added-records"] == "3"
    # Continuing from the page's token: nothing new.
    later = query_events(floe, {"continuation-token": page["continuation-token"],
                                "catalog-objects-by-name": [[NAMESPACE]]})
    assert later["events"] == []
