"""Maintenance nobody starts: a server whose scheduler ticks every second, 200 one-row PyIceberg
appends, then a compaction and retention policy on the namespace. The scheduler finds the table
from what the commits reported, compacts and expires it by itself; PyIceberg and DuckDB read the
same rows before and after, a tag still reads, and the job is listed with its outcome."""

import time

import pyarrow as pa
import pytest
import requests

import readme
from conftest import serve
from maintenance_api import api, jobs, rows
from test_command_line import floe_cli

NAMESPACE = "scheduled"
APPENDS = 200


@pytest.fixture(scope="module")
def ticking(tmp_path_factory):
    with serve(tmp_path_factory.mktemp("floe-scheduled"), "--maintenance-interval", "1s") as floe:
        yield floe


def test_a_namespace_policy_compacts_and_expires_200_appends_by_itself(ticking):
    catalog = readme.pyiceberg_catalog(ticking)
    catalog.create_namespace(NAMESPACE)
    schema = pa.schema([pa.field("id", pa.int64(), nullable=False), pa.field("name", pa.string())])
    table = catalog.create_table(f"{NAMESPACE}.appended", schema=schema)
    for i in range(APPENDS):
        table.append(pa.table({"id": [i], "name": [f"row-{i}"]}, schema=schema))
        if i == 49:
            tagged = table.current_snapshot().snapshot_id
            table.manage_snapshots().create_tag(tagged, "first-fifty").commit()
    table = catalog.load_table(f"{NAMESPACE}.appended")
    before = rows(table)
    assert len(before) == APPENDS and len(table.inspect.files()) == APPENDS
    duck = readme.duckdb_attached(ticking)
    query = f'SELECT id, name FROM floe."{NAMESPACE}".appended'
    assert sorted(duck.execute(query).fetchall()) == before
    assert jobs(ticking, NAMESPACE, "appended") == [], "no policy, no job"

    status, body = api(ticking, "PUT", f"/orgs/{ticking.warehouse}/iceberg/namespaces/"
                       f"{NAMESPACE}/maintenance-policy",
                       {"compaction_target_file_size_bytes": 8 * 1024 * 1024,
                        "snapshot_max_age_seconds": 0, "min_snapshots_to_keep": 5})
    assert status == 200, body

    # The scheduler's own loop does the work; wait for it, at most two minutes.
    deadline = time.monotonic() + 120
    while not any(job["state"] == "succeeded" for job in jobs(ticking, NAMESPACE, "appended")):
        assert time.monotonic() < deadline, jobs(ticking, NAMESPACE, "appended")
        time.sleep(0.5)

    job = jobs(ticking, NAMESPACE, "appended")[0]
    assert job["steps"] == ["compact", "expire_snapshots"], job
    assert "200 data files" in job["reason"], job
    assert "compaction done (200 files into 1)" in job["outcome"], job
    table = catalog.load_table(f"{NAMESPACE}.appended")
    assert len(table.inspect.files()) == 1
    assert len(table.snapshots()) <= 6, "the last five of main and the tag's"
    assert rows(table) == before
    assert sorted(duck.execute(query).fetchall()) == before
    tag = table.scan(snapshot_id=tagged).to_arrow()
    assert sorted(tag.column("id").to_pylist()) == list(range(50))

    listed = floe_cli("tables", "maintenance-jobs", f"{NAMESPACE}.appended", floe=ticking)
    assert listed.returncode == 0, listed.stderr
    assert "succeeded" in listed.stdout and "compaction done" in listed.stdout
    status, audit = api(ticking, "GET", f"/orgs/{ticking.warehouse}/audit?action=table.maintain")
    assert status == 200, audit
    assert [entry["principal_name"] for entry in audit["entries"]] == \
        ["floe-maintenance-scheduler"]
    metrics = requests.get(f"http://127.0.0.1:{ticking.port}/metrics", timeout=60).text
    assert 'floe_maintenance_jobs_total{state="succeeded"}' in metrics
