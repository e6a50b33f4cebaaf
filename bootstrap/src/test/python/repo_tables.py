"""Python side of the test of a repo's tables served by Floe's Iceberg REST catalog.

A Python writer (icechunk + PyIceberg) writes the Icechunk-Iceberg convention into a repo Floe
created; engines then read and write the repo's table through Floe as `<repo>` (the head of main)
and `<repo>@<tag>`; Python follows the repo's pointers to what the engines wrote. Each command
prints one JSON document. Commands:
  write DIR                        arrays and table `granules` (3 rows), tag v1, 2 more rows
  engines-read URI TOKEN ORG REPO  row counts PyIceberg and DuckDB read at REPO and REPO@v1
  append-racing DIR URI TOKEN ORG REPO
                                   PyIceberg loads REPO.granules through Floe, a Python writer
                                   then commits arrays to main, then PyIceberg appends 4 rows
  follow DIR                       what Python finds at main: pointer, rows, arrays, messages
"""
import json
import os
import sys
import warnings

import duckdb
import duckdb_ext
import icechunk as ic
import numpy as np
import pyarrow as pa
import zarr
from pyiceberg.catalog.rest import RestCatalog
from pyiceberg.catalog.sql import SqlCatalog
from pyiceberg.table import StaticTable

warnings.filterwarnings("ignore")

UUID = "66da9667-d40f-46cb-93a5-7c915af5f7dc"
POINTERS = "iceberg:table_versions"
CONVENTION = {
    "uuid": UUID,
    "name": "iceberg:",
    "schema_url": "https://floe.io/conventions/icechunk-iceberg/v1/schema.json",
    "spec_url": "https://floe.io/conventions/icechunk-iceberg/v1/",
    "description": "Iceberg tables describing this group's arrays",
}
# The convention's tables keep Iceberg's own cleanup off: older tags still pin their files.
KEPT = {"gc.enabled": "false", "write.metadata.delete-after-commit.enabled": "false"}


def rows(granules, start):
    return pa.table({"granule": pa.array([f"G-{i}" for i in granules], pa.string()),
                     "rows": pa.array(range(start, start + len(granules)), pa.int64())})


def open_repo(path):
    return ic.Repository.open(ic.local_filesystem_storage(path))


def pointers_at(repo, snapshot_id):
    return dict((repo.lookup_snapshot(snapshot_id).metadata or {}).get(POINTERS) or {})


def write(path):
    """The writer icechest describes: table metadata by PyIceberg, pointers in Icechunk commits."""
    repo = open_repo(path)
    # PyIceberg writes the table's files; this throwaway catalog only hands out metadata versions.
    tables = SqlCatalog("writer", uri="sqlite:///:memory:", warehouse=f"file://{path}/tables")
    tables.create_namespace("w")
    location = f"file://{path}/tables/granules-py"
    table = tables.create_table("w.granules", schema=rows([], 0).schema, location=location,
                                properties=KEPT)
    table.append(rows([1, 2, 3], 0))

    session = repo.writable_session("main")
    root = zarr.group(session.store, attributes={"title": "written by Python"})
    root.attrs.update({"zarr_conventions": [CONVENTION], "iceberg:version": "1",
                       "iceberg:tables": {"granules": {"location": location}}})
    root.create_array("reflectance", shape=(8,), chunks=(4,), dtype="int32")[:] = np.arange(8)
    first = session.commit("create granules",
                           metadata={POINTERS: {"granules": table.metadata_location}})
    repo.create_tag("v1", first)

    table.append(rows([4, 5], 3))
    session = repo.writable_session("main")
    second = session.commit("ingest G-4, G-5",
                            metadata={POINTERS: {"granules": table.metadata_location}},
                            allow_empty=True)
    print(json.dumps({"v1": first, "main": second, "metadata": table.metadata_location}))


def rest_catalog(uri, token, org):
    return RestCatalog("floe", uri=uri, warehouse=org, token=token)


def engines_read(uri, token, org, repo):
    catalog = rest_catalog(uri, token, org)
    out = {"namespaces": sorted(".".join(n) for n in catalog.list_namespaces())}
    con = duckdb.connect()
    con.execute("SET extension_directory = ?",
                [os.path.join(list(duckdb_ext.__path__)[0], "extensions")])
    for statement in ("LOAD httpfs", "LOAD avro", "LOAD iceberg"):
        con.execute(statement)
    con.execute(f"CREATE SECRET floe_token (TYPE ICEBERG, TOKEN '{token}')")
    con.execute(f"ATTACH '{org}' AS floe (TYPE ICEBERG, ENDPOINT '{uri}', SECRET floe_token)")
    for namespace in (repo, f"{repo}@v1"):
        table = catalog.load_table((namespace, "granules"))
        duck = con.execute(f'SELECT count(*), sum("rows") FROM floe."{namespace}".granules').fetchone()
        out[namespace] = {"pyiceberg_rows": table.scan().to_arrow().num_rows,
                          "duckdb_rows": duck[0], "duckdb_sum": duck[1],
                          "properties": dict(table.properties)}
    print(json.dumps(out))


def append_racing(path, uri, token, org, repo_name):
    table = rest_catalog(uri, token, org).load_table((repo_name, "granules"))
    # Another writer lands first: arrays change on main and the table's pointer is carried forward.
    repo = open_repo(path)
    session = repo.writable_session("main")
    carried = pointers_at(repo, repo.lookup_branch("main"))
    zarr.open_group(session.store)["reflectance"][0:4] = np.arange(100, 104)
    racer = session.commit("python arrays", metadata={POINTERS: carried})
    table.append(rows([6, 7, 8, 9], 5))
    print(json.dumps({"racer": racer, "acknowledged_rows": table.scan().to_arrow().num_rows}))


def follow(path):
    repo = open_repo(path)
    head = repo.lookup_branch("main")
    pointer = pointers_at(repo, head)["granules"]
    table = StaticTable.from_metadata(pointer)
    session = repo.readonly_session(branch="main")
    root = zarr.open_group(session.store, mode="r")
    print(json.dumps({
        "snapshot": head,
        "pointer": pointer,
        "rows": table.scan().to_arrow().num_rows,
        "granules": sorted(table.scan().to_arrow().column("granule").to_pylist()),
        "reflectance": root["reflectance"][:].tolist(),
        "declared": dict(root.attrs)["iceberg:tables"],
        "log": [entry.message for entry in repo.ancestry(branch="main")],
    }))


if __name__ == "__main__":
    command, args = sys.argv[1], sys.argv[2:]
    {"write": write, "engines-read": engines_read, "append-racing": append_racing,
     "follow": follow}[command](*args)
