"""Real engines against a real Floe, each configured by its block of "Connect your engine"
(docs/engines.md): the PyIceberg quickstart, polars and pandas reading it, DuckDB reading it and
writing tables of its own that PyIceberg and polars read back, and what DuckDB itself refuses;
and the README's five-minute tour, run as written."""

import re
import urllib.request

import duckdb
import polars as pl
import pyarrow as pa
import pytest
from pyiceberg.exceptions import BadRequestError
from pyiceberg.partitioning import PartitionField, PartitionSpec
from pyiceberg.schema import Schema
from pyiceberg.transforms import IdentityTransform
from pyiceberg.types import LongType, NestedField, StringType

import readme

NAMESPACE = "my-tables"
ROWS = pa.table({
    "station": pa.array(["KSEA", "KPDX", "KSFO"], pa.string()),
    "temp_c": pa.array([11.5, 13.1, 14.2], pa.float64()),
})


def rows_of(table) -> list[tuple]:
    return sorted(tuple(row.values()) for row in table.scan().to_arrow().to_pylist())


@pytest.fixture(scope="module")
def catalog(floe):
    return readme.pyiceberg_catalog(floe)


@pytest.fixture(scope="module")
def observations(catalog, floe):
    """The quickstart of "Connect your engine", run as written."""
    readme.run_python(readme.blocks("PyIceberg")[1], floe, {"catalog": catalog})
    return catalog.load_table(f"{NAMESPACE}.observations")


@pytest.fixture(scope="module")
def duck(floe):
    return readme.duckdb_attached(floe)


def test_quickstart_writes_and_scans(catalog, observations):
    table = catalog.load_table(f"{NAMESPACE}.observations")
    assert table.scan().to_arrow().sort_by("station").to_pylist() == \
        ROWS.sort_by("station").to_pylist()
    hot = table.scan(row_filter="temp_c > 13").to_arrow()
    assert sorted(hot.column("station").to_pylist()) == ["KPDX", "KSFO"]
    assert len(table.history()) == 1


def test_table_lives_under_its_namespace_prefix(catalog, observations, floe):
    location = catalog.load_table(f"{NAMESPACE}.observations").location()
    prefix = (floe.data_dir / "buckets" / "default").as_uri()
    assert location.startswith(prefix + "/")
    assert f"_{NAMESPACE}/" in location


def test_nested_namespaces_are_rejected_with_400(catalog, observations):
    with pytest.raises(BadRequestError, match="flat"):
        catalog.create_table(f"{NAMESPACE}.raw.observations", schema=ROWS.schema)


def test_namespaces_are_listed(catalog, observations):
    catalog.create_namespace("my-raw-tables")
    assert set(catalog.list_namespaces()) >= {(NAMESPACE,), ("my-raw-tables",)}


def test_appends_are_snapshots(catalog):
    table = catalog.create_table(f"{NAMESPACE}.appended", schema=ROWS.schema)
    table.append(ROWS)
    table.append(ROWS)
    table = catalog.load_table(f"{NAMESPACE}.appended")
    assert len(table.history()) == 2
    assert table.scan().to_arrow().num_rows == 6
    table.delete(delete_filter="station == 'KSEA'")
    assert catalog.load_table(f"{NAMESPACE}.appended").scan().to_arrow().num_rows == 4


def test_polars_and_pandas_read_a_floe_table(catalog, observations, floe):
    scope = readme.run_python(readme.blocks("pandas and polars")[0], floe, {"catalog": catalog})
    assert isinstance(scope["warm"], pl.DataFrame)
    assert sorted(scope["warm"].rows()) == [("KPDX", 13.1), ("KSFO", 14.2)]
    frame = scope["frame"]
    assert list(frame.columns) == ["station", "temp_c"]
    assert sorted(frame.itertuples(index=False, name=None)) == \
        sorted(tuple(row.values()) for row in ROWS.to_pylist())


def test_duckdb_reads_the_same_rows(observations, duck):
    rows = duck.execute(f'SELECT station, temp_c FROM floe."{NAMESPACE}".observations').fetchall()
    assert sorted(rows) == sorted(tuple(row.values()) for row in ROWS.to_pylist())


def test_duckdb_writes_what_pyiceberg_and_polars_read(catalog, observations, duck, floe):
    """The documented DuckDB writes: CREATE TABLE AS (a staged create, whose table directory on
    the local bucket exists before DuckDB writes into it), INSERT, UPDATE and DELETE."""
    for statement in readme.sql_statements(readme.blocks("DuckDB")[2]):
        duck.execute(statement)

    expected = [("KBOS", 9.5), ("KSEA", 12.5), ("KSFO", 14.2)]
    table = catalog.load_table("ducks.readings")
    assert rows_of(table) == expected
    assert sorted(pl.scan_iceberg(table).collect().rows()) == expected
    assert sorted(duck.execute("SELECT * FROM floe.ducks.readings").fetchall()) == expected

    assert table.location().startswith((floe.data_dir / "buckets" / "default").as_uri() + "/")
    assert [snapshot.summary.operation.value for snapshot in table.snapshots()] == \
        ["append", "append", "overwrite", "delete"]
    # DuckDB updates and deletes with position-delete files, which the readers had to apply.
    assert 1 in table.inspect.files().column("content").to_pylist()


@pytest.fixture(scope="module")
def refusals(catalog):
    catalog.create_namespace("duck_refusals")
    schema = Schema(NestedField(1, "id", LongType(), required=False),
                    NestedField(2, "region", StringType(), required=False))
    zoned = catalog.create_table("duck_refusals.zoned", schema=schema, partition_spec=PartitionSpec(
        PartitionField(source_id=2, field_id=1000, transform=IdentityTransform(), name="region")))
    zoned.append(pa.table({"id": pa.array([1, 2], pa.int64()), "region": ["eu", "us"]}))
    plain = catalog.create_table("duck_refusals.plain", schema=schema)
    plain.append(pa.table({"id": pa.array([1], pa.int64()), "region": ["eu"]}))
    return catalog


@pytest.mark.parametrize("statement, error", [
    ("INSERT INTO floe.duck_refusals.zoned VALUES (3, 'eu')",
     "INSERT into a partitioned table is not supported yet"),
    ("UPDATE floe.duck_refusals.zoned SET id = 20 WHERE id = 2",
     "Update into a partitioned table is not supported yet"),
    ("DELETE FROM floe.duck_refusals.zoned WHERE id = 1",
     "Delete from a partitioned table is not supported yet"),
    ("MERGE INTO floe.duck_refusals.plain t USING (SELECT 1 AS id) s ON t.id = s.id "
     "WHEN MATCHED THEN DELETE",
     'Database type "iceberg" does not support MERGE INTO or ON CONFLICT'),
    ("ALTER TABLE floe.duck_refusals.plain ADD COLUMN extra INTEGER", "Alter Schema Entry"),
    ("ALTER TABLE floe.duck_refusals.plain RENAME TO renamed", "Alter Schema Entry"),
    ("CREATE VIEW floe.duck_refusals.recent AS SELECT 1 AS one", "Create View"),
    ("CREATE OR REPLACE TABLE floe.duck_refusals.plain AS SELECT 2 AS id",
     "CREATE OR REPLACE not supported in DuckDB-Iceberg"),
    ("CREATE TABLE floe.duck_refusals.parted (id INTEGER) PARTITIONED BY (id)",
     'syntax error at or near "PARTITIONED"'),
])
def test_what_duckdb_itself_refuses_changes_nothing(refusals, duck, statement, error):
    """The limits of DuckDB 1.4.4's iceberg extension, as the docs list them."""
    before = {name: refusals.load_table(f"duck_refusals.{name}").metadata_location
              for name in ("zoned", "plain")}
    with pytest.raises(duckdb.Error, match=re.escape(error)):
        duck.execute(statement)
    assert {name: refusals.load_table(f"duck_refusals.{name}").metadata_location
            for name in ("zoned", "plain")} == before
    assert sorted(refusals.list_tables("duck_refusals")) == [
        ("duck_refusals", "plain"), ("duck_refusals", "zoned")]


def test_the_readme_tour_runs_as_written(floe, capsys):
    """The README's five minutes: connect, create a namespace and a table, append, read back;
    then the web app answers a browser at the address the tour gives."""
    scope = {}
    for block in readme.tour_blocks("python"):
        readme.run_python(block, floe, scope)
    assert sorted(row["station"] for row in scope["warm"].to_pylist()) == ["KPDX", "KSFO"]
    assert "KSFO" in capsys.readouterr().out
    table = scope["catalog"].load_table("tour.readings")
    assert len(table.history()) == 1
    assert table.location().startswith((floe.data_dir / "buckets" / "default").as_uri() + "/")
    browser = urllib.request.Request(floe.uri.removesuffix("/iceberg") + "/",
                                     headers={"Accept": "text/html"})
    with urllib.request.urlopen(browser) as page:
        assert "text/html" in page.headers["Content-Type"]
        assert "Sign in" in page.read().decode()


def test_large_loads_go_out_gzipped_to_clients_that_accept_it(catalog, duck, floe):
    """A table whose metadata is large (here 600 columns) is answered gzipped to a client that
    accepts gzip: PyIceberg and DuckDB read it, and the answer decodes to the identity answer."""
    import gzip
    import json
    columns = [NestedField(i, f"column_{i:04d}", LongType(), required=False)
               for i in range(1, 601)]
    catalog.create_namespace_if_not_exists("wide")
    table = catalog.create_table("wide.columns", schema=Schema(*columns))
    table.append(pa.table({f"column_{i:04d}": pa.array([i], pa.int64()) for i in range(1, 601)}))
    url = f"{floe.uri}/v1/{floe.warehouse}/namespaces/wide/tables/columns"

    def load(accept_encoding):
        request = urllib.request.Request(url, headers={
            "Authorization": f"Bearer {floe.token}", "Accept-Encoding": accept_encoding})
        with urllib.request.urlopen(request) as answer:
            return answer.headers, answer.read()

    zipped_headers, zipped = load("gzip, deflate")
    plain_headers, plain = load("identity")
    assert zipped_headers["Content-Encoding"] == "gzip"
    assert plain_headers.get("Content-Encoding") is None
    assert len(zipped) * 5 < len(plain)
    assert json.loads(gzip.decompress(zipped)) == json.loads(plain)
    assert zipped_headers["ETag"] == "W/" + plain_headers["ETag"]
    reloaded = catalog.load_table("wide.columns")
    assert reloaded.scan(selected_fields=("column_0600",)).to_arrow().to_pylist() == [
        {"column_0600": 600}]
    assert duck.execute(
        "SELECT column_0600 FROM floe.wide.columns").fetchall() == [(600,)]


def test_a_name_that_cannot_exist_does_not_exist_but_creating_it_says_why(catalog):
    """PyIceberg's existence checks read a 404 as "no" and raise on a 400."""
    assert catalog.namespace_exists("TEST NS") is False
    assert catalog.table_exists(("TEST NS", "t")) is False
    assert catalog.view_exists(("TEST NS", "v")) is False
    with pytest.raises(BadRequestError, match="ASCII letters, digits"):
        catalog.create_namespace("TEST NS")
