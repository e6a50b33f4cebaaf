"""Spark 3.5 with Iceberg's Spark runtime against a real Floe, configured by the
`spark-sql` command line of docs/engines.md: a partitioned merge-on-read table written with INSERT, MERGE INTO,
UPDATE and DELETE, a view, and the rewrite_data_files and expire_snapshots procedures; PyIceberg
and DuckDB then read what Spark wrote; a MERGE is one commit event, pulled and pushed. Spark starts
once for the module."""

import datetime
import os

import duckdb
import pytest
from pyiceberg.partitioning import PartitionField
from pyiceberg.transforms import IdentityTransform, MonthTransform

import readme
from change_feed import commits_seen, end_of_feed, subscribed

# What running inside a test adds to the documented configuration: a local executor, no web UI,
# loopback only, and a driver JVM that compiles with C1 alone, which a short-lived JVM on a busy
# machine finishes sooner with.
TEST_RUNTIME = {
    "spark.master": "local[2]",
    "spark.ui.enabled": "false",
    "spark.sql.shuffle.partitions": "2",
    "spark.driver.bindAddress": "127.0.0.1",
    "spark.driver.host": "127.0.0.1",
    "spark.driver.extraJavaOptions": "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC",
}

TABLE = "floe.spark_sales.orders"
# The rows after every statement of the script, worked out by hand.
FINAL_ROWS = [
    (1, "eu", 10.0, datetime.date(2026, 1, 5)),
    (2, "us", 25.0, datetime.date(2026, 1, 6)),
    (4, "ap", 80.0, datetime.date(2026, 2, 2)),
    (5, "us", 50.0, datetime.date(2026, 1, 20)),
    (6, "eu", 60.0, datetime.date(2026, 2, 3)),
]
VIEW_ROWS = [(4, 80.0), (5, 50.0), (6, 60.0)]


@pytest.fixture(scope="module")
def spark(floe):
    from pyspark.sql import SparkSession

    conf = readme.spark_submit_conf(readme.for_server(readme.blocks("Spark")[0], floe))
    runtime = readme.local_maven_jar(conf["spark.jars.packages"])
    assert runtime.is_file(), (
        f"{runtime} is missing: .ci/run puts the Iceberg Spark runtime into the local Maven "
        "repository, where Spark resolves --packages without downloading")
    if "FLOE_MAVEN_REPOSITORY" in os.environ:
        # --packages resolves from ~/.m2 only: a runtime kept elsewhere is handed over as a jar
        # (it is a shaded jar with no dependencies to resolve).
        conf = {key: value for key, value in conf.items() if key != "spark.jars.packages"}
        conf["spark.jars"] = str(runtime)
    builder = SparkSession.builder.appName("floe-engine-tests")
    for key, value in {**conf, **TEST_RUNTIME}.items():
        builder = builder.config(key, value)
    session = builder.getOrCreate()
    yield session
    session.stop()


def sql(spark, statement):
    return [tuple(row) for row in spark.sql(statement).collect()]


@pytest.fixture(scope="module")
def orders(spark):
    """The table after the DML part of the script."""
    sql(spark, "CREATE NAMESPACE floe.spark_sales")
    sql(spark, f"""CREATE TABLE {TABLE} (id BIGINT, region STRING, amount DOUBLE, day DATE)
        USING iceberg PARTITIONED BY (region, months(day))
        TBLPROPERTIES ('write.delete.mode'='merge-on-read', 'write.update.mode'='merge-on-read',
                       'write.merge.mode'='merge-on-read')""")
    sql(spark, f"""INSERT INTO {TABLE} VALUES (1, 'eu', 10.0, DATE '2026-01-05'),
        (2, 'us', 20.0, DATE '2026-01-06'), (3, 'eu', 30.0, DATE '2026-02-01')""")
    sql(spark, f"""INSERT INTO {TABLE} VALUES (4, 'ap', 40.0, DATE '2026-02-02'),
        (5, 'us', 50.0, DATE '2026-01-20')""")
    sql(spark, f"""MERGE INTO {TABLE} t
        USING (SELECT * FROM VALUES (2, 'us', 25.0D, DATE '2026-01-06'),
                                    (6, 'eu', 60.0D, DATE '2026-02-03')
               AS s(id, region, amount, day)) s
        ON t.id = s.id
        WHEN MATCHED THEN UPDATE SET amount = s.amount
        WHEN NOT MATCHED THEN INSERT *""")
    sql(spark, f"UPDATE {TABLE} SET amount = amount * 2 WHERE region = 'ap'")
    sql(spark, f"DELETE FROM {TABLE} WHERE id = 3")
    return TABLE


@pytest.fixture(scope="module")
def maintained(spark, orders):
    """The maintenance part of the script: compaction, then expiry of all but the last
    snapshot. Returns the procedures' result rows."""
    files_before = sql(spark, f"SELECT count(*) FROM {orders}.files")[0][0]
    rewritten = sql(spark, "CALL floe.system.rewrite_data_files(table => 'spark_sales.orders', "
                           "options => map('rewrite-all', 'true'))")
    expired = sql(spark, "CALL floe.system.expire_snapshots(table => 'spark_sales.orders', "
                         "older_than => TIMESTAMP '2999-01-01 00:00:00', retain_last => 1)")
    return {"files_before": files_before, "rewritten": rewritten[0], "expired": expired[0]}


def pyiceberg_rows(floe):
    table = readme.pyiceberg_catalog(floe).load_table("spark_sales.orders")
    return sorted(tuple(row.values()) for row in table.scan().to_arrow().to_pylist())


def duckdb_rows(floe):
    return sorted(readme.duckdb_attached(floe).execute(
        "SELECT id, region, amount, day FROM floe.spark_sales.orders").fetchall())


def test_spark_writes_a_partitioned_table_with_merge_update_and_delete(spark, orders, floe):
    assert sorted(sql(spark, f"SELECT * FROM {orders}")) == FINAL_ROWS
    table = readme.pyiceberg_catalog(floe).load_table("spark_sales.orders")
    fields = [(field.name, type(field.transform)) for field in table.spec().fields]
    assert fields == [("region", IdentityTransform), ("day_month", MonthTransform)]
    operations = [snapshot.summary.operation.value for snapshot in table.snapshots()]
    assert operations == ["append", "append", "overwrite", "overwrite", "delete"]


def test_pyiceberg_and_duckdb_apply_sparks_position_deletes(spark, orders, floe):
    table = readme.pyiceberg_catalog(floe).load_table("spark_sales.orders")
    assert 1 in table.inspect.files().column("content").to_pylist()
    assert pyiceberg_rows(floe) == FINAL_ROWS
    assert duckdb_rows(floe) == FINAL_ROWS


def test_a_spark_view_is_stored_in_floe(spark, orders, floe):
    sql(spark, f"""CREATE VIEW floe.spark_sales.big_orders AS
        SELECT id, amount FROM {orders} WHERE amount >= 50""")
    assert sorted(sql(spark, "SELECT * FROM floe.spark_sales.big_orders")) == VIEW_ROWS
    catalog = readme.pyiceberg_catalog(floe)
    assert ("spark_sales", "big_orders") in catalog.list_views("spark_sales")
    version = catalog.load_view("spark_sales.big_orders").metadata.versions[-1]
    representation = version.representations[0].root
    assert representation.dialect == "spark" and "amount >= 50" in representation.sql
    # DuckDB 1.4.4 lists tables only: an Iceberg view is not in its catalog.
    with pytest.raises(duckdb.CatalogException,
                       match="Table with name big_orders does not exist"):
        readme.duckdb_attached(floe).execute("SELECT * FROM floe.spark_sales.big_orders")


def test_rewrite_data_files_and_expire_snapshots_keep_the_rows(spark, maintained, floe):
    rewritten_files, added_files = maintained["rewritten"][0], maintained["rewritten"][1]
    assert rewritten_files > 0 and added_files > 0
    assert maintained["expired"][0] > 0, "expiry deleted no data file"
    table = readme.pyiceberg_catalog(floe).load_table("spark_sales.orders")
    assert len(table.snapshots()) == 1
    assert table.snapshots()[0].summary.operation.value == "replace"
    assert sorted(sql(spark, f"SELECT * FROM {TABLE}")) == FINAL_ROWS
    assert pyiceberg_rows(floe) == FINAL_ROWS
    assert duckdb_rows(floe) == FINAL_ROWS


def test_a_spark_merge_is_one_commit_event_pulled_and_pushed_in_order(spark, floe):
    """The MERGE, and the DELETE after it, are one commit each: one `update-table` event each,
    with the snapshot each made, in commit order, on the events endpoint and at a webhook."""
    sql(spark, "CREATE NAMESPACE floe.spark_events")
    sql(spark, "CREATE TABLE floe.spark_events.merged (id BIGINT, amount DOUBLE) USING iceberg")
    sql(spark, "INSERT INTO floe.spark_events.merged VALUES (1, 10.0), (2, 20.0)")
    catalog = readme.pyiceberg_catalog(floe)
    inserted = catalog.load_table("spark_events.merged").current_snapshot()
    with subscribed(floe, "spark_events", "merged") as subscription:
        token = end_of_feed(floe, "spark_events")
        sql(spark, """MERGE INTO floe.spark_events.merged t
            USING (SELECT * FROM VALUES (2, 25.0D), (3, 30.0D) AS s(id, amount)) s
            ON t.id = s.id
            WHEN MATCHED THEN UPDATE SET amount = s.amount
            WHEN NOT MATCHED THEN INSERT *""")
        merged = catalog.load_table("spark_events.merged").current_snapshot()
        sql(spark, "DELETE FROM floe.spark_events.merged WHERE id = 1")
        deleted = catalog.load_table("spark_events.merged").current_snapshot()

        commits = commits_seen(floe, subscription, token, "spark_events", "merged",
                               lambda d: d["snapshot_id"] == deleted.snapshot_id)

    assert [c["snapshot_id"] for c in commits] == [merged.snapshot_id, deleted.snapshot_id]
    assert [[a["snapshot_id"] for a in c["added_snapshots"]] for c in commits] == \
        [[merged.snapshot_id], [deleted.snapshot_id]]
    assert commits[0]["added_snapshots"][0]["parent_snapshot_id"] == inserted.snapshot_id
    assert commits[0]["added_snapshots"][0]["operation"] == "overwrite"
    assert sorted(sql(spark, "SELECT * FROM floe.spark_events.merged")) == [(2, 25.0), (3, 30.0)]
