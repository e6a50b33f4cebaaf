"""Server-side replay with PyIceberg 0.12 on its default settings: an append that loses the race
to another writer's commit is rebased onto the new head by Floe instead of failing, and a delete
is replayed only when the rows added meanwhile cannot match its predicate.

PyIceberg commits on the metadata it last saw (it does not refresh before committing), so every
writer that is not the last to commit builds on an outdated head: without replay most of the
concurrent appends below would fail with CommitFailedException.
"""

import json
import multiprocessing

import pyarrow as pa
import pytest
from pyiceberg.catalog.rest import RestCatalog
from pyiceberg.exceptions import CommitFailedException

WRITERS = 16
BATCHES = 10
ROWS_PER_BATCH = 10
# The summary property that states which rows a delete is about (see docs/catalog.md, "Server-side replay").
CONFLICT_FILTER = "floe.conflict-detection-filter"


def _catalog(uri: str, token: str) -> RestCatalog:
    return RestCatalog("floe", uri=uri, warehouse="my-org", token=token)


def _batch(writer: int, batch: int) -> pa.Table:
    return pa.table({
        "writer": pa.array([writer] * ROWS_PER_BATCH, pa.int64()),
        "batch": pa.array([batch] * ROWS_PER_BATCH, pa.int64()),
        "n": pa.array(range(ROWS_PER_BATCH), pa.int64()),
    })


def _append_batches(args) -> tuple[int, list[str]]:
    """One writer process: loads the table once and appends its batches, as a script would."""
    uri, token, identifier, writer, start = args
    table = _catalog(uri, token).load_table(identifier)
    start.wait()
    acknowledged, failures = 0, []
    for batch in range(BATCHES):
        try:
            table.append(_batch(writer, batch))
            acknowledged += 1
        except CommitFailedException as e:
            failures.append(str(e))
    return acknowledged, failures


@pytest.fixture(scope="module")
def catalog(floe):
    catalog = _catalog(floe.uri, floe.token)
    catalog.create_namespace("replay")
    return catalog


def test_sixteen_pyiceberg_processes_appending_ten_batches_each_all_land(catalog, floe):
    identifier = "replay.contended"
    catalog.create_table(identifier, schema=_batch(0, 0).schema)
    context = multiprocessing.get_context("spawn")
    with context.Manager() as manager:
        start = manager.Barrier(WRITERS)
        with context.Pool(WRITERS) as pool:
            results = pool.map(_append_batches, [(floe.uri, floe.token, identifier, w, start)
                                                 for w in range(WRITERS)])
    acknowledged = sum(count for count, _ in results)
    failures = [failure for _, failed in results for failure in failed]
    print(f"\nconcurrent appends acknowledged: {acknowledged} of {WRITERS * BATCHES}")
    assert failures == []
    assert acknowledged == WRITERS * BATCHES

    table = catalog.load_table(identifier)
    rows = table.scan().to_arrow()
    assert rows.num_rows == WRITERS * BATCHES * ROWS_PER_BATCH
    landed = {(w, b) for w, b in zip(rows["writer"].to_pylist(), rows["batch"].to_pylist())}
    assert landed == {(w, b) for w in range(WRITERS) for b in range(BATCHES)}
    assert len(table.snapshots()) == WRITERS * BATCHES
    summary = table.current_snapshot().summary
    assert summary["total-records"] == str(WRITERS * BATCHES * ROWS_PER_BATCH)


def _stations(catalog, name: str):
    schema = pa.schema([("station", pa.string()), ("temp_c", pa.float64())])
    # PyIceberg 0.12 retries a refused commit itself, validating on the refreshed table: without
    # its retries, what the client sees is the server's own verdict.
    table = catalog.create_table(f"replay.{name}", schema=schema,
                                 properties={"commit.retry.num-retries": "0"})
    table.append(pa.table({"station": ["KSEA", "KPDX"], "temp_c": [11.5, 13.1]}, schema=schema))
    return table, schema


def _stations_filter(station: str) -> dict:
    return {CONFLICT_FILTER: json.dumps({"type": "eq", "term": "station", "value": station})}


def test_a_delete_racing_an_append_of_matching_rows_is_a_conflict_naming_both_snapshots(catalog):
    table, schema = _stations(catalog, "matching")
    base = table.current_snapshot().snapshot_id
    deleter = catalog.load_table("replay.matching")
    appender = catalog.load_table("replay.matching")
    appender.append(pa.table({"station": ["KSEA"], "temp_c": [9.0]}, schema=schema))
    winner = appender.current_snapshot().snapshot_id

    with pytest.raises(CommitFailedException) as refused:
        deleter.delete("station == 'KSEA'", snapshot_properties=_stations_filter("KSEA"))

    message = str(refused.value)
    assert str(base) in message and str(winner) in message
    assert "replay.matching" in message and "KSEA" in message
    rows = catalog.load_table("replay.matching").scan().to_arrow()
    assert sorted(rows["station"].to_pylist()) == ["KPDX", "KSEA", "KSEA"]


def test_a_delete_racing_an_append_of_rows_its_predicate_cannot_match_is_replayed(catalog):
    table, schema = _stations(catalog, "disjoint")
    deleter = catalog.load_table("replay.disjoint")
    appender = catalog.load_table("replay.disjoint")
    appender.append(pa.table({"station": ["KBOS"], "temp_c": [4.0]}, schema=schema))
    winner = appender.current_snapshot().snapshot_id

    deleter.delete("station == 'KSEA'", snapshot_properties=_stations_filter("KSEA"))

    reloaded = catalog.load_table("replay.disjoint")
    assert sorted(reloaded.scan().to_arrow()["station"].to_pylist()) == ["KBOS", "KPDX"]
    assert reloaded.current_snapshot().parent_snapshot_id == winner
    assert reloaded.current_snapshot().summary["total-records"] == "2"
