"""Server-side scan planning with PyIceberg 0.12: a catalog with `scan-planning-mode=server`
plans every scan through Floe's plan endpoint and reads exactly the rows a catalog planning
itself reads, on a partitioned table with a delete, for a filter, a projection and an older
snapshot; a large plan's pages (plan tasks) are followed to the end."""

import pyarrow as pa
import pytest
from pyiceberg.catalog.rest import RestCatalog
from pyiceberg.partitioning import PartitionField, PartitionSpec
from pyiceberg.schema import Schema
from pyiceberg.transforms import IdentityTransform
from pyiceberg.types import LongType, NestedField, StringType

from conftest import serve

SCHEMA = Schema(
    NestedField(1, "id", LongType(), required=True),
    NestedField(2, "region", StringType(), required=True),
    NestedField(3, "note", StringType(), required=False),
)
SPEC = PartitionSpec(PartitionField(source_id=2, field_id=1000, transform=IdentityTransform(),
                                    name="region"))
ARROW = pa.schema([pa.field("id", pa.int64(), nullable=False),
                   pa.field("region", pa.string(), nullable=False),
                   pa.field("note", pa.string())])


def batch(ids, region):
    return pa.table({"id": ids, "region": [region] * len(ids),
                     "note": [f"n{i}" for i in ids]}, schema=ARROW)


def catalog(server, **properties):
    return RestCatalog("floe", uri=server.uri, warehouse=server.warehouse, token=server.token,
                       **properties)


def rows(scan):
    return sorted(tuple(row.values()) for row in scan.to_arrow().to_pylist())


@pytest.fixture(scope="module")
def paged(tmp_path_factory):
    """A server whose plans hold at most two tasks: larger ones answer plan tasks."""
    with serve(tmp_path_factory.mktemp("floe-paged"), "--scan-planning-page-size", "2") as s:
        yield s


def planned_by_server(table, monkeypatch):
    """Counts the plans the catalog asks the server for."""
    calls = []
    original = table.catalog._plan_table_scan

    def counted(identifier, request):
        calls.append(request)
        return original(identifier, request)

    monkeypatch.setattr(table.catalog, "_plan_table_scan", counted)
    return calls


def test_server_planning_reads_the_rows_client_planning_reads(floe, monkeypatch):
    local = catalog(floe)
    server = catalog(floe, **{"scan-planning-mode": "server"})
    assert server.supports_server_side_planning()
    assert not local.supports_server_side_planning()

    local.create_namespace("planned")
    table = local.create_table("planned.readings", schema=SCHEMA, partition_spec=SPEC)
    table.append(pa.concat_tables([batch([1, 2, 3], "eu"), batch([4, 5], "us")]))
    first = table.current_snapshot().snapshot_id
    table.append(batch([6, 7], "eu"))
    table.delete("id = 2")

    mine, theirs = local.load_table("planned.readings"), server.load_table("planned.readings")
    plans = planned_by_server(theirs, monkeypatch)
    scans = [
        lambda t: t.scan(),
        lambda t: t.scan(row_filter="id > 3"),
        lambda t: t.scan(row_filter="region = 'eu'", selected_fields=("id",)),
        lambda t: t.scan(snapshot_id=first),
        lambda t: t.scan(snapshot_id=first, row_filter="region = 'us'"),
    ]
    for scan in scans:
        expected = rows(scan(mine))
        assert expected
        assert rows(scan(theirs)) == expected
    assert len(plans) == len(scans)
    assert (2, "eu", "n2") not in rows(theirs.scan())


def test_large_plans_are_paged_and_read_whole(paged, monkeypatch):
    local = catalog(paged)
    server = catalog(paged, **{"scan-planning-mode": "server"})
    local.create_namespace("paged")
    table = local.create_table("paged.readings", schema=SCHEMA, partition_spec=SPEC)
    for start in range(0, 30, 5):
        table.append(pa.concat_tables([batch([start, start + 1], "eu"),
                                       batch([start + 2, start + 3, start + 4], "us")]))

    fetched = []
    theirs = server.load_table("paged.readings")
    original = theirs.catalog._fetch_scan_tasks

    def counted(identifier, plan_task):
        fetched.append(plan_task)
        return original(identifier, plan_task)

    monkeypatch.setattr(theirs.catalog, "_fetch_scan_tasks", counted)
    assert rows(theirs.scan()) == rows(local.load_table("paged.readings").scan())
    assert len(rows(theirs.scan(row_filter="region = 'us'"))) == 18
    assert len(fetched) > 6
