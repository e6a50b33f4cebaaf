"""Trino 476 against a real Floe, configured by the Trino section of docs/engines.md: its catalog
file as written, and the section's statements run as written, on the default (local) bucket and
on an S3 bucket (moto) where Trino holds no key and works with the credentials Floe vends alone.
PyIceberg reads what Trino wrote, and Trino reads what PyIceberg wrote. One Trino serves the
module, with one catalog for each setup."""

import datetime

import pyarrow as pa
import pytest
import trino as trino_client

import readme
import s3_vending
import trino_server

SCHEMA = "trips"
S3_SCHEMA = "trips_s3"
S3_BUCKET = "lake-trino"
RIDES = [(1, "Oslo", 13.0, datetime.date(2026, 1, 5)), (2, "Lima", 9.0, datetime.date(2026, 1, 5)),
         (4, "Pune", 5.5, datetime.date(2026, 1, 7))]
MOTO_ENDPOINT = "http://127.0.0.1:9000"


def catalog_file(floe) -> str:
    return readme.for_server(readme.blocks("Trino")[0], floe)


def statements(catalog: str, schema: str) -> list[str]:
    """The section's SQL, addressed to `catalog` and `schema`."""
    block = readme.blocks("Trino")[2].replace("floe.trips.", f"{catalog}.{schema}.") \
        .replace("floe.trips;", f"{catalog}.{schema};")
    return readme.sql_statements(block)


@pytest.fixture(scope="module")
def vending(moto):
    with s3_vending.vending_identity(moto, "floe-trino-tables") as identity:
        yield identity


@pytest.fixture(scope="module")
def trino(floe, moto, vending, tmp_path_factory):
    """One Trino for the module: `floe`, the documented catalog file as written, and `floe_s3`,
    the same file with the documented S3-compatible endpoint lines pointing at moto."""
    s3_lines = readme.blocks("Trino")[1].replace(MOTO_ENDPOINT, moto)
    assert moto in s3_lines, "the docs' S3 endpoint example changed"
    server = trino_server.Trino(tmp_path_factory.mktemp("trino"), {
        "floe": catalog_file(floe),
        "floe_s3": catalog_file(floe) + s3_lines,
    })
    yield server
    server.stop()


@pytest.fixture(scope="module")
def catalog(floe):
    return readme.pyiceberg_catalog(floe)


@pytest.fixture(scope="module")
def s3_namespace(floe, moto, vending, catalog):
    """A namespace on an S3 bucket whose credentials Floe vends by assuming a role; Trino's
    schemas take no bucket, so PyIceberg creates it."""
    s3_vending.add_bucket(floe, moto, vending, S3_BUCKET)
    catalog.create_namespace(S3_SCHEMA, {"floe.bucket": S3_BUCKET})
    return S3_SCHEMA


def rows(table) -> list[tuple]:
    return sorted(tuple(row.values()) for row in table.scan().to_arrow().to_pylist())


def run_the_documented_statements(trino, catalog_name, schema, skip_create_schema=False):
    results = {}
    for statement in statements(catalog_name, schema):
        if skip_create_schema and statement.startswith("CREATE SCHEMA"):
            continue
        results[statement.split()[0] + " " + statement.split()[1]] = \
            trino.query(statement, catalog_name)
    return results


def check_what_trino_wrote(trino, catalog, catalog_name, schema, results):
    rides = catalog.load_table(f"{schema}.rides")
    assert rows(rides) == RIDES
    assert sorted(tuple(r) for r in trino.query(
        f"SELECT id, city, fare, day FROM {catalog_name}.{schema}.rides", catalog_name)) == RIDES
    assert rows(catalog.load_table(f"{schema}.fares_by_city")) == sorted(
        [("Lima", 9.0), ("Oslo", 13.0), ("Pune", 5.5)])
    assert (schema, "long_rides") in catalog.list_views(schema)
    assert trino.query(f"SELECT id FROM {catalog_name}.{schema}.long_rides",
                       catalog_name) == [[1]]
    # The $snapshots query ran before optimize: Trino's CREATE TABLE commits an empty snapshot,
    # then come the insert, the update, the delete and the merge.
    operations = [operation for _, operation in results["SELECT snapshot_id,"]]
    assert operations == ["append", "append", "overwrite", "delete", "overwrite"], operations

    inserted = sorted(rides.snapshots(), key=lambda snapshot: snapshot.sequence_number)[1]
    assert trino.query(f"SELECT count(*) FROM {catalog_name}.{schema}.rides "
                       f"FOR VERSION AS OF {inserted.snapshot_id}", catalog_name) == [[3]]
    files = trino.query(f'SELECT file_path FROM {catalog_name}.{schema}."rides$files"',
                        catalog_name)
    assert files and all(path.startswith(rides.location() + "/") for [path] in files)
    history = trino.query(f'SELECT snapshot_id FROM {catalog_name}.{schema}."rides$history"',
                          catalog_name)
    assert [inserted.snapshot_id] in history
    # optimize rewrote the files into one snapshot of its own; the rows stayed.
    assert rides.current_snapshot().summary.operation.value == "replace"


def test_plain_create_schema_and_create_table_work(trino, catalog):
    """Trino stages a create only in a namespace that reports its location; before namespaces
    did, its CREATE TABLE left a table behind and failed on a non-empty location."""
    trino.query("CREATE SCHEMA floe.trino_plain")
    assert catalog.load_namespace_properties("trino_plain")["location"].startswith("file:/")
    trino.query("CREATE TABLE floe.trino_plain.t (id bigint, name varchar)")
    trino.query("INSERT INTO floe.trino_plain.t VALUES (1, 'one')")
    assert rows(catalog.load_table("trino_plain.t")) == [(1, "one")]


def test_a_schema_location_is_refused(trino, catalog):
    """Floe's 400 names the read-only property; Trino reports that the create failed."""
    with pytest.raises(trino_client.exceptions.TrinoExternalError,
                       match="Failed to create namespace 'trino_placed'"):
        trino.query("CREATE SCHEMA floe.trino_placed WITH (location = 'file:///tmp/elsewhere')")
    assert ("trino_placed",) not in catalog.list_namespaces()


def test_the_documented_statements_on_the_default_bucket(trino, catalog, floe):
    results = run_the_documented_statements(trino, "floe", SCHEMA)
    check_what_trino_wrote(trino, catalog, "floe", SCHEMA, results)
    location = catalog.load_table(f"{SCHEMA}.rides").location()
    assert location.startswith((floe.data_dir / "buckets" / "default").as_uri() + "/")


def test_the_documented_statements_on_s3_with_vended_credentials_only(
        trino, catalog, s3_namespace, moto, vending):
    """moto checks every signature: Trino's catalog file holds no key, so each of its requests
    is signed with a session Floe vended for the table."""
    results = run_the_documented_statements(trino, "floe_s3", s3_namespace,
                                            skip_create_schema=True)
    check_what_trino_wrote(trino, catalog, "floe_s3", s3_namespace, results)
    rides = catalog.load_table(f"{s3_namespace}.rides")
    assert rides.location().startswith(f"s3://{S3_BUCKET}/")
    stored = s3_vending.keys(moto, vending, S3_BUCKET)
    table_key = rides.location().removeprefix(f"s3://{S3_BUCKET}/")
    assert any(key.startswith(table_key + "/data/") for key in stored), stored


@pytest.mark.parametrize("catalog_name, schema_fixture", [("floe", None),
                                                          ("floe_s3", "s3_namespace")])
def test_trino_reads_what_pyiceberg_wrote(trino, catalog, request, catalog_name, schema_fixture):
    schema = request.getfixturevalue(schema_fixture) if schema_fixture else "pyiceberg_made"
    if not schema_fixture:
        catalog.create_namespace(schema)
    written = pa.table({"station": ["KSEA", "KPDX"], "temp_c": [11.5, 13.1]})
    table = catalog.create_table(f"{schema}.readings", schema=written.schema)
    table.append(written)
    assert sorted(tuple(r) for r in trino.query(
        f"SELECT station, temp_c FROM {catalog_name}.{schema}.readings", catalog_name)) == \
        [("KPDX", 13.1), ("KSEA", 11.5)]
