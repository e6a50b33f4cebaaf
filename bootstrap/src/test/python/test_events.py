"""The change feed seen by engines' users (docs/events.md): a PyIceberg append and a DuckDB INSERT
are each one `update-table` event carrying the snapshot they made, served by the Iceberg REST
events endpoint and sent to a webhook receiver, in commit order; a commit that failed is no event
on either. (A Spark MERGE is in test_spark.py, with the module's Spark.)"""

import uuid

import pyarrow as pa
import requests

import readme
from change_feed import commits_seen, end_of_feed, query_events, subscribed

NAMESPACE = "my-events"


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


def test_each_duckdb_insert_is_one_commit_event_pulled_and_pushed_in_order(floe):
    """DuckDB 1.4.4's iceberg extension INSERTs into an unpartitioned table through Floe's REST
    catalog (docs/engines.md); each INSERT is one commit, one event."""
    catalog = readme.pyiceberg_catalog(floe)
    catalog.create_namespace("duck_events")
    catalog.create_table("duck_events.inserted",
                         schema=pa.schema([pa.field("id", pa.int64())]))
    duck = readme.duckdb_attached(floe)
    with subscribed(floe, "duck_events", "inserted") as subscription:
        token = end_of_feed(floe, "duck_events")
        snapshots = []
        for values in ("(1), (2)", "(3)"):
            duck.execute(f"INSERT INTO floe.duck_events.inserted VALUES {values}")
            snapshots.append(catalog.load_table("duck_events.inserted").current_snapshot())

        commits = commits_seen(floe, subscription, token, "duck_events", "inserted",
                               lambda d: d["snapshot_id"] == snapshots[-1].snapshot_id)

    assert [c["snapshot_id"] for c in commits] == [s.snapshot_id for s in snapshots]
    assert [[a["snapshot_id"] for a in c["added_snapshots"]] for c in commits] == \
        [[s.snapshot_id] for s in snapshots]
    # DuckDB 1.4.4 writes no summary beyond the operation.
    assert [c["added_snapshots"][0]["operation"] for c in commits] == ["append", "append"]
    assert commits[1]["added_snapshots"][0]["parent_snapshot_id"] == snapshots[0].snapshot_id
    rows = catalog.load_table("duck_events.inserted").scan().to_arrow().column("id").to_pylist()
    assert sorted(rows) == [1, 2, 3]


def test_a_failed_commit_is_no_event(floe):
    """A table commit whose requirement fails, and a two-table transaction whose second table's
    requirement fails (the first table's part would have applied), are both refused with 409 and
    leave no event; the next commit that succeeds is the only one pulled and pushed."""
    catalog = readme.pyiceberg_catalog(floe)
    catalog.create_namespace("failed_commits")
    schema = pa.schema([pa.field("id", pa.int64())])
    first = catalog.create_table("failed_commits.first", schema=schema)
    second = catalog.create_table("failed_commits.second", schema=schema)
    tables = f"{floe.uri}/v1/{floe.warehouse}/namespaces/failed_commits/tables"
    auth = {"Authorization": f"Bearer {floe.token}"}

    def change(table_uuid, value):
        return {"requirements": [{"type": "assert-table-uuid", "uuid": str(table_uuid)}],
                "updates": [{"action": "set-properties", "updates": {"marker": value}}]}

    with subscribed(floe, "failed_commits", "first") as subscription:
        token = end_of_feed(floe, "failed_commits")
        refused = requests.post(f"{tables}/first", headers=auth, timeout=30,
                                json=change(uuid.uuid4(), "refused"))
        assert refused.status_code == 409
        assert refused.json()["error"]["type"] == "CommitFailedException"
        rolled_back = requests.post(
            f"{floe.uri}/v1/{floe.warehouse}/transactions/commit", headers=auth, timeout=30,
            json={"table-changes": [
                {"identifier": {"namespace": ["failed_commits"], "name": "first"},
                 **change(first.metadata.table_uuid, "rolled-back")},
                {"identifier": {"namespace": ["failed_commits"], "name": "second"},
                 **change(uuid.uuid4(), "rolled-back")}]})
        assert rolled_back.status_code == 409
        assert rolled_back.json()["error"]["type"] == "CommitFailedException"
        assert catalog.load_table("failed_commits.first").metadata_location == \
            first.metadata_location
        kept = requests.post(f"{tables}/first", headers=auth, timeout=30,
                             json=change(first.metadata.table_uuid, "kept"))
        assert kept.status_code == 200

        commits = commits_seen(
            floe, subscription, token, "failed_commits", "first",
            lambda d: d["metadata_location"] == kept.json()["metadata-location"])

    assert len(commits) == 1
    assert commits[0]["previous_metadata_location"] == first.metadata_location
    assert commits[0]["updates"] == ["set-properties"]
    second_events = query_events(floe, {"continuation-token": token,
                                        "catalog-objects-by-name": [["failed_commits", "second"]]})
    assert second_events["events"] == []
