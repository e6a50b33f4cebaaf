"""The Spark executor: a server started with spark-submit and a local Spark (local[2]), whose
scheduler ticks every second, and a namespace policy of compaction and retention with
`executor: spark`. After 200 one-row PyIceberg appends the scheduler submits one Spark job, which
reaches Floe over REST with the job's own token and runs Iceberg's rewrite_data_files and
expire_snapshots; PyIceberg and Spark read the same rows before and after, a tag still reads,
and the job is listed as succeeded, run by Spark. The job reaches the table's files only through
Floe's S3 endpoint, with keys for the table's prefix.

Then the hostile writer: a PyIceberg writer appends data-file entries naming files outside its
table (another namespace's data file, a file in the system's temporary directory, a copy of a file
of the server's data directory) and deletes them again; the Spark job that expires snapshots fails,
saying why, and every one of those files still exists. A writer whose table names another
namespace's data file gets no compaction: the job fails, saying why, and the table's own files
hold none of the other namespace's rows."""

import copy
import pathlib
import shutil
import sys
import tempfile
import time

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import readme
from conftest import serve
from maintenance_api import api, jobs, rows
from test_spark import TEST_RUNTIME

NAMESPACE = "spark_maintained"
APPENDS = 200
AWS_BUNDLE = "org.apache.iceberg:iceberg-aws-bundle:1.11.0"
SCHEMA = pa.schema([pa.field("id", pa.int64(), nullable=False), pa.field("name", pa.string())])


def spark_submit():
    """spark-submit of the PySpark the tests run with (pip's pyspark ships it)."""
    import pyspark

    return pathlib.Path(pyspark.__file__).parent / "bin" / "spark-submit"


def runtime_jar():
    conf = readme.spark_submit_conf(readme.blocks("Spark")[0])
    jar = readme.local_maven_jar(conf["spark.jars.packages"])
    assert jar.is_file(), (
        f"{jar} is missing: .ci/run puts the Iceberg Spark runtime into the local Maven "
        "repository")
    return jar


def aws_bundle_jar():
    jar = readme.local_maven_jar(AWS_BUNDLE)
    assert jar.is_file(), f"{jar} is missing: .ci/run puts Iceberg's AWS bundle there"
    return jar


@pytest.fixture(scope="module")
def floe_with_spark(tmp_path_factory):
    options = ["--maintenance-interval", "1s", "--spark-submit", str(spark_submit()),
               "--spark-master", TEST_RUNTIME["spark.master"],
               # The job reaches storage with S3FileIO, whose AWS SDK the bundle brings.
               "--spark-jars", f"{runtime_jar()},{aws_bundle_jar()}",
               "--spark-job-timeout", "10m",
               # The driver runs the test's own Python, which has PySpark.
               "--spark-conf", f"spark.pyspark.python={sys.executable}"]
    for key in ("spark.sql.shuffle.partitions", "spark.driver.bindAddress", "spark.driver.host",
                "spark.driver.extraJavaOptions"):
        options += ["--spark-conf", f"{key}={TEST_RUNTIME[key]}"]
    with serve(tmp_path_factory.mktemp("floe-spark-maintenance"), *options) as floe:
        yield floe


def spark_rows(floe, table):
    """The table's rows as a Spark of its own reads them (the test's, not the job's)."""
    from pyspark.sql import SparkSession

    conf = readme.spark_submit_conf(readme.for_server(readme.blocks("Spark")[0], floe))
    conf.pop("spark.jars.packages")
    builder = SparkSession.builder.appName("floe-spark-maintenance-test")
    for key, value in {**conf, **TEST_RUNTIME, "spark.jars": str(runtime_jar())}.items():
        builder = builder.config(key, value)
    session = builder.getOrCreate()
    try:
        return sorted(tuple(row) for row in session.sql(
            f"SELECT id, name FROM floe.{NAMESPACE}.{table}").collect())
    finally:
        session.stop()


def test_a_policy_with_executor_spark_is_run_by_a_spark_job(floe_with_spark):
    floe = floe_with_spark
    policy_path = f"/orgs/{floe.warehouse}/iceberg/namespaces/{NAMESPACE}/maintenance-policy"
    catalog = readme.pyiceberg_catalog(floe)
    catalog.create_namespace(NAMESPACE)

    status, body = api(floe, "PUT", policy_path, {"executor": "hadoop"})
    assert status == 400, body

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

    status, body = api(floe, "PUT", policy_path,
                       {"compaction_target_file_size_bytes": 8 * 1024 * 1024,
                        "snapshot_max_age_seconds": 0, "min_snapshots_to_keep": 5,
                        "executor": "spark"})
    assert status == 200, body
    assert body["effective"]["executor"] == "spark"
    assert body["sources"]["executor"] == "namespace"

    # Spark starts once for the job; wait for it, at most five minutes.
    deadline = time.monotonic() + 300
    while not any(job["state"] in ("succeeded", "failed") or job["last_error"]
                  for job in jobs(floe, NAMESPACE, "appended")):
        assert time.monotonic() < deadline, jobs(floe, NAMESPACE, "appended")
        time.sleep(1)

    job = jobs(floe, NAMESPACE, "appended")[0]
    assert job["state"] == "succeeded", job
    assert job["executor"] == "spark", job
    assert job["steps"] == ["compact", "expire_snapshots"], job
    assert job["outcome"].startswith("spark: compaction done (200 files into 1)"), job
    assert "expiry done" in job["outcome"], job

    table = catalog.load_table(f"{NAMESPACE}.appended")
    assert len(table.inspect.files()) == 1
    assert len(table.snapshots()) <= 6, "the last five of main and the tag's"
    assert rows(table) == before
    tag = table.scan(snapshot_id=tagged).to_arrow()
    assert sorted(tag.column("id").to_pylist()) == list(range(50))
    assert spark_rows(floe, "appended") == before

    # The job's commits came over REST as the scheduler's, with the job's token.
    status, audit = api(floe, "GET", f"/orgs/{floe.warehouse}/audit?action=table.commit")
    assert status == 200, audit
    assert "floe-maintenance-scheduler" in [entry["principal_name"] for entry in audit["entries"]]


def wait_for_job(floe, namespace, table):
    """The table's first maintenance job once it succeeded or an attempt failed (it then waits
    for its retry, its reason in last_error); Spark starts for it, at most 5 minutes."""
    deadline = time.monotonic() + 300
    while not any(job["state"] in ("succeeded", "failed") or job["last_error"]
                  for job in jobs(floe, namespace, table)):
        assert time.monotonic() < deadline, jobs(floe, namespace, table)
        time.sleep(1)
    return jobs(floe, namespace, table)[0]


def foreign_entry(template, path):
    """A data-file entry like `template` (a real file of another table) naming `path`."""
    entry = copy.copy(template)
    entry._data = list(template._data)
    entry[1] = path  # file_path, then file_size_in_bytes: PyIceberg's Record has no setters
    entry[5] = local_path(path).stat().st_size
    return entry


def local_path(uri):
    """The file a file: URI names."""
    assert uri.startswith("file:"), uri
    return pathlib.Path("/" + uri[len("file:"):].lstrip("/"))


def victim_table(catalog):
    """Another namespace's table: its one data file holds rows no other table may copy."""
    catalog.create_namespace("spark_victims")
    theirs = catalog.create_table("spark_victims.theirs", schema=SCHEMA)
    theirs.append(pa.table({"id": [9001, 9002], "name": ["theirs-1", "theirs-2"]},
                           schema=SCHEMA))
    return next(iter(theirs.scan().plan_files())).file


@pytest.fixture(scope="module")
def foreign_files(floe_with_spark):
    """Files outside the writers' tables: another namespace's data file, a file in the system's
    temporary directory and one in the server's data directory (a copy of its secret key's
    place, not the key itself), the last two Parquet copies of the other namespace's rows."""
    floe = floe_with_spark
    catalog = readme.pyiceberg_catalog(floe)
    theirs = victim_table(catalog)
    source = local_path(theirs.file_path)
    handle, temp = tempfile.mkstemp(suffix=".parquet")
    shutil.copyfile(source, temp)
    data_dir_copy = floe.data_dir / "secret-copy.key"
    shutil.copyfile(source, data_dir_copy)
    paths = [theirs.file_path, f"file://{temp}", f"file://{data_dir_copy}"]
    yield theirs, paths
    pathlib.Path(temp).unlink(missing_ok=True)


def spark_policy(floe, namespace, **settings):
    status, body = api(floe, "PUT", f"/orgs/{floe.warehouse}/iceberg/namespaces/{namespace}"
                       "/maintenance-policy", {**settings, "executor": "spark"})
    assert status == 200, body


def test_expiring_snapshots_never_deletes_files_outside_the_table(floe_with_spark, foreign_files):
    floe = floe_with_spark
    theirs, paths = foreign_files
    catalog = readme.pyiceberg_catalog(floe)
    catalog.create_namespace("spark_expiring")
    writer = catalog.create_table("spark_expiring.writer", schema=SCHEMA)
    writer.append(pa.table({"id": [1], "name": ["mine"]}, schema=SCHEMA))
    entries = [foreign_entry(theirs, path) for path in paths]
    with writer.transaction() as tx:
        with tx.update_snapshot().fast_append() as append:
            for entry in entries:
                append.append_data_file(entry)
    writer = catalog.load_table("spark_expiring.writer")
    with writer.transaction() as tx:
        with tx.update_snapshot().overwrite() as overwrite:
            for entry in entries:
                overwrite.delete_data_file(entry)
    writer = catalog.load_table("spark_expiring.writer")
    assert len(writer.snapshots()) == 3 and rows(writer) == [(1, "mine")]

    spark_policy(floe, "spark_expiring", snapshot_max_age_seconds=0, min_snapshots_to_keep=1)
    job = wait_for_job(floe, "spark_expiring", "writer")

    reason = job["last_error"]
    assert job["state"] != "succeeded" and reason, job
    assert "refused the table" in reason and "outside its location" in reason, reason
    assert "3 file(s)" in reason, reason
    for path in paths:
        assert local_path(path).is_file(), f"{path} was deleted: {reason}"
    assert len(catalog.load_table("spark_expiring.writer").snapshots()) == 3


def test_compaction_never_copies_another_namespaces_rows(floe_with_spark, foreign_files):
    floe = floe_with_spark
    theirs, paths = foreign_files
    catalog = readme.pyiceberg_catalog(floe)
    catalog.create_namespace("spark_compacting")
    writer = catalog.create_table("spark_compacting.writer", schema=SCHEMA)
    for i in range(3):
        writer.append(pa.table({"id": [i], "name": [f"mine-{i}"]}, schema=SCHEMA))
    with writer.transaction() as tx:
        with tx.update_snapshot().fast_append() as append:
            for path in paths:
                append.append_data_file(foreign_entry(theirs, path))
    writer = catalog.load_table("spark_compacting.writer")
    before = writer.current_snapshot().snapshot_id

    spark_policy(floe, "spark_compacting", compaction_target_file_size_bytes=8 * 1024 * 1024)
    job = wait_for_job(floe, "spark_compacting", "writer")

    reason = job["last_error"]
    assert job["state"] != "succeeded" and reason, job
    assert "refused the table" in reason and theirs.file_path in reason, reason
    writer = catalog.load_table("spark_compacting.writer")
    assert writer.current_snapshot().snapshot_id == before, "the job committed nothing"
    own = [path for path in local_path(writer.location()).rglob("*.parquet")]
    assert len(own) == 3
    names = [name for path in own for name in pq.read_table(path).column("name").to_pylist()]
    assert sorted(names) == ["mine-0", "mine-1", "mine-2"]
    for path in paths:
        assert local_path(path).is_file()
