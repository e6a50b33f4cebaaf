"""The Spark executor: a server started with spark-submit and a local Spark (local[2]), whose
scheduler ticks every second, and a namespace policy of compaction and retention with
`executor: spark`. After 200 one-row PyIceberg appends the scheduler submits one Spark job, which
reaches Floe over REST with the job's own token and runs Iceberg's rewrite_data_files and
expire_snapshots; PyIceberg and Spark read the same rows before and after, a tag still reads,
and the job is listed as succeeded, run by Spark."""

import pathlib
import sys
import time

import pyarrow as pa
import pytest

import readme
from conftest import serve
from maintenance_api import api, jobs, rows
from test_spark import TEST_RUNTIME

NAMESPACE = "spark_maintained"
APPENDS = 200


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


@pytest.fixture(scope="module")
def floe_with_spark(tmp_path_factory):
    options = ["--maintenance-interval", "1s", "--spark-submit", str(spark_submit()),
               "--spark-master", TEST_RUNTIME["spark.master"], "--spark-jars", str(runtime_jar()),
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
