"""Real engines against a real Floe: the seed's PyIceberg quickstart, then DuckDB reading the
same rows through the same catalog."""

import os

import duckdb
import pyarrow as pa
import pytest
from pyiceberg.catalog.rest import RestCatalog
from pyiceberg.exceptions import BadRequestError

NAMESPACE = "my-tables"
ROWS = pa.table({
    "station": pa.array(["KSEA", "KPDX", "KSFO"], pa.string()),
    "temp_c": pa.array([11.5, 13.1, 14.2], pa.float64()),
})


@pytest.fixture(scope="module")
def catalog(floe):
    return RestCatalog("floe", uri=floe.uri, warehouse=floe.warehouse, token=floe.token)


@pytest.fixture(scope="module")
def observations(catalog):
    catalog.create_namespace(NAMESPACE)
    table = catalog.create_table(f"{NAMESPACE}.observations", schema=ROWS.schema)
    table.append(ROWS)
    return table


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


def test_appends_are_snapshots(catalog, observations):
    table = catalog.load_table(f"{NAMESPACE}.observations")
    table.append(ROWS)
    table = catalog.load_table(f"{NAMESPACE}.observations")
    assert len(table.history()) == 2
    assert table.scan().to_arrow().num_rows == 6
    table.delete(delete_filter="station == 'KSEA'")
    assert catalog.load_table(f"{NAMESPACE}.observations").scan().to_arrow().num_rows == 4


def test_duckdb_reads_the_same_rows(catalog, observations, floe):
    import duckdb_ext

    extensions = os.path.join(list(duckdb_ext.__path__)[0], "extensions")
    con = duckdb.connect()
    con.execute("SET extension_directory = ?", [extensions])
    con.execute("SET autoinstall_known_extensions = false")
    con.execute("LOAD httpfs; LOAD avro; LOAD iceberg;")
    con.execute(f"CREATE SECRET floe_secret (TYPE ICEBERG, TOKEN '{floe.token}')")
    con.execute(f"ATTACH '{floe.warehouse}' AS floe (TYPE ICEBERG, ENDPOINT '{floe.uri}', "
                "SECRET floe_secret)")
    expected = sorted(tuple(row.values()) for row in
                      catalog.load_table(f"{NAMESPACE}.observations").scan().to_arrow().to_pylist())
    rows = con.execute(f'SELECT station, temp_c FROM floe."{NAMESPACE}".observations').fetchall()
    assert sorted(rows) == expected
