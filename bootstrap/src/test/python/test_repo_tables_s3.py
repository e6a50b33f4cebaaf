"""A repo's table on an S3 bucket (moto, with conditional writes) served by Floe's REST catalog,
while a Python Icechunk writer commits arrays to the same branch: both writers race on the
branch's ref, and every commit of both lands.

The Python writer follows the icechest convention: each commit carries every declared table's
current pointer forward, read from the head it commits on; when its commit loses the race it
starts over from the new head (a rebase would carry a pointer that may be outdated by then).
"""

import threading

import boto3
import icechunk as ic
import numpy as np
import pyarrow as pa
import zarr
from pyiceberg.catalog.rest import RestCatalog
from pyiceberg.table import StaticTable

from test_storage_delegation import ROLE, SERVER_KEY, SERVER_SECRET, add_bucket, call

POINTERS = "iceberg:table_versions"
ENGINE_APPENDS = 12
# The Python writer commits until the engine is done; this only bounds the array it writes.
MAX_PYTHON_COMMITS = 1000


def repo_storage(moto, bucket, prefix):
    return ic.s3_storage(bucket=bucket, prefix=prefix, endpoint_url=moto, allow_http=True,
                         force_path_style=True, region="us-east-1",
                         access_key_id=SERVER_KEY, secret_access_key=SERVER_SECRET)


def python_writer(repo, engine_done, landed, conflicts):
    """Writes chunk i of /counts in commit i, carrying the tables' pointers from its head, until
    the engine is done."""
    for i in range(MAX_PYTHON_COMMITS):
        if engine_done.is_set():
            return
        while True:
            session = repo.writable_session("main")
            head = repo.lookup_snapshot(session.snapshot_id)
            carried = dict((head.metadata or {}).get(POINTERS) or {})
            zarr.open_group(session.store)["counts"][i] = i + 1
            try:
                session.commit(f"python {i}", metadata={POINTERS: carried})
                landed.append(i)
                break
            except ic.ConflictError:
                conflicts.append(i)


def test_a_python_writer_and_an_engine_racing_on_one_repo_both_land(floe, moto):
    s3 = boto3.client("s3", endpoint_url=moto, region_name="us-east-1",
                      aws_access_key_id=SERVER_KEY, aws_secret_access_key=SERVER_SECRET)
    add_bucket(floe, s3, moto, "lake-repos", role_arn=ROLE)
    status, created = call(floe, "POST", f"/orgs/{floe.warehouse}/repos",
                           {"name": "swath", "bucket_nickname": "lake-repos"})
    assert status == 201, created
    try:
        repo = ic.Repository.open(repo_storage(moto, "lake-repos", created["prefix"]))
        session = repo.writable_session("main")
        zarr.group(session.store).create_array("counts", shape=(MAX_PYTHON_COMMITS,), chunks=(1,),
                                               dtype="int32", fill_value=0)
        session.commit("arrays")

        engine = RestCatalog("floe", uri=floe.uri, warehouse=floe.warehouse, token=floe.token)
        table = engine.create_table(("swath", "granules"), schema=pa.schema(
            [pa.field("writer", pa.string()), pa.field("n", pa.int64())]))
        assert table.metadata.location.startswith(f"s3://lake-repos/{created['prefix']}/tables/")

        engine_done, landed, conflicts = threading.Event(), [], []
        python = threading.Thread(target=python_writer, args=(repo, engine_done, landed, conflicts))
        python.start()
        try:
            for n in range(ENGINE_APPENDS):
                # Reloaded each time, as a script run per batch would: the race is on the branch.
                engine.load_table(("swath", "granules")).append(
                    pa.table({"writer": ["engine"], "n": pa.array([n], pa.int64())}))
        finally:
            engine_done.set()
            python.join(timeout=300)
        assert not python.is_alive()

        log = list(reversed([entry.message for entry in repo.ancestry(branch="main")]))
        engine_commits = [i for i, m in enumerate(log) if m.startswith("Iceberg commit to table")]
        assert len(engine_commits) == ENGINE_APPENDS, log
        assert [m for m in log if m.startswith("python ")] == [f"python {i}" for i in landed]
        # The writers really overlapped: Python commits landed between the engine's.
        between = log[engine_commits[0]:engine_commits[-1]]
        assert sum(m.startswith("python ") for m in between) >= ENGINE_APPENDS // 2, log
        head = repo.lookup_snapshot(repo.lookup_branch("main"))
        pointer = head.metadata[POINTERS]["granules"]
        assert pointer == engine.load_table(("swath", "granules")).metadata_location

        rows = StaticTable.from_metadata(pointer, properties={
            "s3.endpoint": moto, "s3.access-key-id": SERVER_KEY,
            "s3.secret-access-key": SERVER_SECRET, "s3.region": "us-east-1",
        }).scan().to_arrow()
        assert sorted(rows.column("n").to_pylist()) == list(range(ENGINE_APPENDS))
        counts = zarr.open_group(repo.readonly_session(branch="main").store, mode="r")["counts"][:]
        assert counts.tolist() == [i + 1 if i < len(landed) else 0
                                   for i in range(MAX_PYTHON_COMMITS)]
        print(f"{len(landed)} Python commits landed, {len(conflicts)} lost a race and started "
              f"over; {ENGINE_APPENDS} engine appends landed")
    finally:
        # The repo lives on this test's S3 server, which stops with the test: later tests that
        # list every namespace and its tables must not meet a repo they cannot reach.
        call(floe, "DELETE",
             f"/orgs/{floe.warehouse}/repos/swath?immediate=true&retain_data=true")
