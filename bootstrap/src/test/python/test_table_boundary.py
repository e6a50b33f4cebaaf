"""Every file the server reads, rewrites or deletes for a table lies under that table's location,
whatever its manifests say. A writer of table A (who may not read table B) commits, with
PyIceberg, data-file entries naming B's Parquet file and a file outside every table; then the web
app's preview of A shows none of B's rows, in-process compaction of A fails with the reason and
puts no row of B into A, and in-process expiry of A deletes neither file. On the local default
bucket and on S3 (moto)."""

import pathlib
import re

import boto3
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import requests
from pyiceberg.catalog.rest import RestCatalog
from pyiceberg.manifest import DataFile, DataFileContent, FileFormat
from pyiceberg.typedef import Record

from maintenance_api import api, rows
from test_storage_delegation import ROLE, SERVER_KEY, SERVER_SECRET, add_bucket

SCHEMA = pa.schema([pa.field("id", pa.int64(), nullable=False), pa.field("name", pa.string())])
SECRET = "only-admins-may-read-this"
BUCKET = "lake-boundary"


def _writer_of(floe, namespace: str, table: str) -> RestCatalog:
    """A member who may write `namespace.table` and nothing else, with PyIceberg."""
    org = f"/orgs/{floe.warehouse}"
    status, user = api(floe, "POST", f"{org}/users", {"name": f"writer-of-{namespace}"})
    assert status == 201, user
    status, grant = api(floe, "POST", f"{org}/grants", {
        "principal_id": user["id"], "namespace": namespace, "table": table, "action": "write"})
    assert status == 201, grant
    status, issued = api(floe, "POST", f"{org}/tokens", {"principal_id": user["id"]})
    assert status == 201, issued
    return RestCatalog("writer", uri=floe.uri, warehouse=floe.warehouse, token=issued["token"])


def _entry(path: str, size: int) -> DataFile:
    """A data-file entry as a writer puts it into a manifest: any path, any size."""
    return DataFile.from_args(content=DataFileContent.DATA, file_path=path,
                              file_format=FileFormat.PARQUET, partition=Record(), record_count=1,
                              file_size_in_bytes=size)


def _preview_page(floe, namespace: str, table: str) -> str:
    """The web app's page of a table, as the admin signed in with their API token sees it."""
    base = f"http://127.0.0.1:{floe.port}"
    browser = requests.Session()
    form = browser.get(f"{base}/ui/sign-in", timeout=30)
    csrf = re.search(r'name="_csrf" value="([^"]+)"', form.text).group(1)
    signed_in = browser.post(f"{base}/ui/sign-in", data={
        "_csrf": csrf, "next": "/", "token": floe.token}, timeout=30)
    assert signed_in.status_code == 200, signed_in.text
    page = browser.get(f"{base}/ui/orgs/{floe.warehouse}/namespaces/{namespace}/tables/{table}",
                       timeout=60)
    assert page.status_code == 200, page.text
    return page.text


def _maintain(floe, namespace: str, table: str, body: dict):
    return api(floe, "POST", f"/orgs/{floe.warehouse}/iceberg/namespaces/{namespace}/tables/"
               f"{table}/maintenance", body)


def _cross_the_boundary(floe, admin, namespace: str, foreign: list[str], exists):
    """Creates B (read by admins only) and A, has A's writer commit entries naming B's data file
    and each of `foreign`, then checks preview, compaction and expiry; `exists(path)` says
    whether a file is still stored."""
    admin.create_table(f"{namespace}.secrets", schema=SCHEMA).append(
        pa.table({"id": [1], "name": [SECRET]}, schema=SCHEMA))
    secrets = admin.load_table(f"{namespace}.secrets")
    [b_file] = secrets.inspect.files().to_pylist()
    admin.create_table(f"{namespace}.open", schema=SCHEMA)

    writer = _writer_of(floe, namespace, "open")
    a = writer.load_table(f"{namespace}.open")
    a.append(pa.table({"id": [10, 11], "name": ["a-10", "a-11"]}, schema=SCHEMA))
    a = writer.load_table(f"{namespace}.open")
    own = set(a.inspect.files().column("file_path").to_pylist())
    planted = list(foreign)

    def commit_entries(entries):
        tx = writer.load_table(f"{namespace}.open").transaction()
        with tx.update_snapshot().fast_append() as append:
            for path, size in entries:
                append.append_data_file(_entry(path, size))
        tx.commit_transaction()

    commit_entries([(b_file["file_path"], b_file["file_size_in_bytes"])])

    # (a) The preview reads nothing outside A: no row of B, and a note saying why.
    page = _preview_page(floe, namespace, "open")
    assert SECRET not in page
    assert "names a file outside the table" in page

    # (b) In-process compaction refuses, in the management API's error format, and A gains no row.
    status, refused = _maintain(floe, namespace, "open",
                                {"compact": {"min_input_files": 2}})
    assert 400 <= status < 500, refused
    assert "outside the table's location" in refused["detail"], refused
    assert b_file["file_path"] in refused["detail"], refused
    a = admin.load_table(f"{namespace}.open")
    assert len(a.snapshots()) == 2, "nothing was committed"
    assert set(a.inspect.files().column("file_path").to_pylist()) == own | {
        b_file["file_path"]}, "no file holding B's rows was written into A"

    # Files outside every table: refused alike, by the preview and by compaction.
    commit_entries(planted)
    assert SECRET not in _preview_page(floe, namespace, "open")
    status, refused = _maintain(floe, namespace, "open", {"compact": {"min_input_files": 2}})
    assert 400 <= status < 500 and "outside the table's location" in refused["detail"], refused
    assert exists(b_file["file_path"])
    for path, _ in planted:
        assert exists(path), path

    # (c) In-process expiry: the entries are dropped and every old snapshot expired; the files
    # outside A stay, and the run names them.
    a = writer.load_table(f"{namespace}.open")
    a.overwrite(pa.table({"id": [20], "name": ["a-20"]}, schema=SCHEMA))
    status, report = _maintain(floe, namespace, "open", {
        "expire_snapshots": {"older_than_seconds": 0, "retain_last": 1}})
    assert status == 200, report
    expiry = report["expiry"]
    assert expiry["outcome"] == "done", expiry
    assert set(expiry["refused_files"]) == {b_file["file_path"], *(p for p, _ in planted)}, expiry
    assert exists(b_file["file_path"])
    for path, _ in planted:
        assert exists(path), path
    assert rows(admin.load_table(f"{namespace}.secrets")) == [(1, SECRET)]
    assert rows(admin.load_table(f"{namespace}.open")) == [(20, "a-20")]


def test_a_writer_cannot_reach_another_tables_file_on_the_local_bucket(floe):
    admin = RestCatalog("floe", uri=floe.uri, warehouse=floe.warehouse, token=floe.token)
    admin.create_namespace("bounded")
    # A Parquet file in the server's data directory, outside every table (and every bucket).
    planted = pathlib.Path(floe.data_dir) / "planted.parquet"
    pq.write_table(pa.table({"id": [2], "name": [SECRET]}, schema=SCHEMA), planted)

    def exists(path: str) -> bool:
        return pathlib.Path(re.sub(r"^file:(//)?", "", path)).exists()

    _cross_the_boundary(floe, admin, "bounded",
                        [(planted.as_uri(), planted.stat().st_size)], exists)


@pytest.fixture(scope="module")
def s3(moto):
    return boto3.client("s3", endpoint_url=moto, region_name="us-east-1",
                        aws_access_key_id=SERVER_KEY, aws_secret_access_key=SERVER_SECRET)


def test_a_writer_cannot_reach_another_tables_file_on_s3(floe, s3, moto):
    add_bucket(floe, s3, moto, BUCKET, role_arn=ROLE)
    admin = RestCatalog("floe", uri=floe.uri, warehouse=floe.warehouse, token=floe.token)
    admin.create_namespace("bounded_s3", {"floe.bucket": BUCKET})
    s3.put_object(Bucket=BUCKET, Key="elsewhere/planted.parquet", Body=b"PAR1 not a table's")

    def exists(path: str) -> bool:
        key = path.removeprefix(f"s3://{BUCKET}/")
        return "Contents" in s3.list_objects_v2(Bucket=BUCKET, Prefix=key)

    _cross_the_boundary(floe, admin, "bounded_s3",
                        [(f"s3://{BUCKET}/elsewhere/planted.parquet", 18)], exists)
