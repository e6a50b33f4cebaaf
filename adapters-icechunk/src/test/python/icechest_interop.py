"""Python side of Floe's tests of the Icechunk-Iceberg convention (icechest's layout).

A Zarr group declares its Iceberg tables in its attributes (zarr_conventions entry, iceberg:version,
iceberg:tables with each table's location); the commit metadata of every snapshot carries each
declared table's current metadata.json under iceberg:table_versions. Table metadata is written with
PyIceberg into a local warehouse. Each command prints one JSON document. Commands:
  build DIR WAREHOUSE      three commits and a tag, two tables, arrays beside them
  build-malformed DIR WAREHOUSE   a commit that declares a table but carries no pointer for it
  table-metadata WAREHOUSE NAME   writes a new table's first metadata.json, prints its URI
  read DIR                 declared tables and pointers at every branch and tag, tables loaded
  data-file PATH GRANULE:ROWS...  writes a Parquet data file of the tables' schema (field ids
                           set), prints its URI, size, row count and column bounds
  scan DIR TABLE ARRAY     the head of main: commit count, the table's pointer and rows (read
                           with PyIceberg), the array's values (read with zarr)
"""
import json
import sys
import uuid
import warnings

import icechunk as ic
import numpy as np
import zarr
import zarr.errors
from pyiceberg.io.pyarrow import PyArrowFileIO
from pyiceberg.partitioning import UNPARTITIONED_PARTITION_SPEC
from pyiceberg.schema import Schema
from pyiceberg.serializers import FromInputFile, ToOutputFile
from pyiceberg.table import StaticTable
from pyiceberg.table.metadata import new_table_metadata
from pyiceberg.table.sorting import UNSORTED_SORT_ORDER
from pyiceberg.table.update import SetPropertiesUpdate, update_table_metadata
from pyiceberg.types import LongType, NestedField, StringType

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
SCHEMA = Schema(NestedField(1, "granule", StringType(), required=False),
                NestedField(2, "rows", LongType(), required=False))
IO = PyArrowFileIO()


def storage(path):
    return ic.local_filesystem_storage(path)


def new_table(warehouse, name):
    """A table's first metadata.json, with the convention's safety properties."""
    location = f"file://{warehouse.rstrip('/')}/{name}"
    metadata = new_table_metadata(SCHEMA, UNPARTITIONED_PARTITION_SPEC, UNSORTED_SORT_ORDER, location,
                                  properties={"gc.enabled": "false",
                                              "write.metadata.delete-after-commit.enabled": "false"})
    uri = f"{location}/metadata/00000-{uuid.uuid4()}.metadata.json"
    ToOutputFile.table_metadata(metadata, IO.new_output(uri))
    return location, uri


def next_version(uri, **props):
    """A new table version on top of the one at uri (a property change, as a commit would make)."""
    metadata = FromInputFile.table_metadata(IO.new_input(uri))
    updated = update_table_metadata(metadata, (SetPropertiesUpdate(updates=props),),
                                    metadata_location=uri)
    location = updated.location
    new_uri = f"{location}/metadata/{len(updated.metadata_log):05d}-{uuid.uuid4()}.metadata.json"
    ToOutputFile.table_metadata(updated, IO.new_output(new_uri))
    return new_uri


def declare(group, tables):
    """Adds the convention and table bindings to a group's attributes, leaving others alone."""
    attrs = dict(group.attrs)
    listed = list(attrs.get("zarr_conventions") or [])
    if not any(c.get("uuid") == UUID for c in listed):
        listed.append(CONVENTION)
    bindings = dict(attrs.get("iceberg:tables") or {})
    bindings.update({name: {"location": location} for name, location in tables.items()})
    group.attrs.update({"zarr_conventions": listed, "iceberg:version": "1", "iceberg:tables": bindings})


def build(path, warehouse):
    repo = ic.Repository.create(storage(path))
    s = repo.writable_session("main")
    root = zarr.group(s.store, attributes={"title": "icechest"})
    refl = root.create_array("reflectance", shape=(20,), chunks=(10,), dtype="float32")
    refl[0:10] = np.arange(10, dtype="float32")
    granules_location, v0 = new_table(warehouse, "granules")
    declare(root, {"granules": granules_location})
    first = s.commit("create granules", metadata={POINTERS: {"granules": v0}})
    repo.create_tag("v1", first)

    s = repo.writable_session("main")
    zarr.open_group(s.store)["reflectance"][10:20] = np.arange(10, 20, dtype="float32")
    v1 = next_version(v0, ingested="G-100")
    s.commit("ingest G-100", metadata={POINTERS: {"granules": v1}, "author": "py"})

    s = repo.writable_session("main")
    sub = zarr.open_group(s.store).create_group("qa", attributes={"kind": "quality"})
    quality_location, q0 = new_table(warehouse, "quality")
    declare(sub, {"quality": quality_location})
    s.commit("create quality", metadata={POINTERS: {"granules": v1, "quality": q0}})
    print(json.dumps(describe(repo)))


def build_malformed(path, warehouse):
    """A well-formed first commit, then one that moves the arrays but drops the pointer."""
    repo = ic.Repository.create(storage(path))
    s = repo.writable_session("main")
    root = zarr.group(s.store)
    root.create_array("values", shape=(4,), chunks=(4,), dtype="int32")[:] = [1, 2, 3, 4]
    location, v0 = new_table(warehouse, "granules")
    declare(root, {"granules": location})
    s.commit("create granules", metadata={POINTERS: {"granules": v0}})
    s = repo.writable_session("main")
    zarr.open_group(s.store)["values"][:] = [5, 6, 7, 8]
    s.commit("arrays only, pointer forgotten", metadata={"author": "careless"})
    print(json.dumps(describe(repo)))


def declared_tables(session):
    """Every group declaring the convention, walked from the root, as {table: {group, location}}."""
    try:
        root = zarr.open_group(session.store, mode="r")
    except zarr.errors.GroupNotFoundError:
        return {}  # the repository's first snapshot has no nodes
    groups = [("/", root)] + [("/" + name, g) for name, g in root.groups()]
    stack = list(groups[1:])
    while stack:
        name, g = stack.pop()
        for child_name, child in g.groups():
            entry = (name + "/" + child_name, child)
            groups.append(entry)
            stack.append(entry)
    out = {}
    for path, g in groups:
        attrs = dict(g.attrs)
        if any(c.get("uuid") == UUID for c in attrs.get("zarr_conventions") or []):
            for table, binding in (attrs.get("iceberg:tables") or {}).items():
                out[table] = {"group": path, "location": binding["location"]}
    return out


def describe_snapshot(repo, snapshot_id):
    session = repo.readonly_session(snapshot_id=snapshot_id)
    metadata = repo.lookup_snapshot(snapshot_id).metadata or {}
    pointers = dict(metadata.get(POINTERS) or {})
    tables = declared_tables(session)
    loaded = {}
    for table, uri in pointers.items():
        t = StaticTable.from_metadata(uri)
        loaded[table] = {"location": t.metadata.location,
                         "fields": [f.name for f in t.schema().fields],
                         "properties": dict(t.metadata.properties)}
    return {"snapshot": snapshot_id, "tables": tables, "pointers": pointers, "loaded": loaded}


def describe(repo):
    out = {"branches": {}, "tags": {}, "history": {}}
    for b in sorted(repo.list_branches()):
        out["branches"][b] = describe_snapshot(repo, repo.lookup_branch(b))
        out["history"][b] = [describe_snapshot(repo, a.id) for a in repo.ancestry(branch=b)]
    for t in sorted(repo.list_tags()):
        out["tags"][t] = describe_snapshot(repo, repo.lookup_tag(t))
    return out


def read(path):
    print(json.dumps(describe(ic.Repository.open(storage(path)))))


def data_file(path, pairs):
    import pyarrow as pa
    import pyarrow.parquet as pq
    granules = [p.split(":")[0] for p in pairs]
    rows = [int(p.split(":")[1]) for p in pairs]
    schema = pa.schema([pa.field("granule", pa.string(), metadata={b"PARQUET:field_id": b"1"}),
                        pa.field("rows", pa.int64(), metadata={b"PARQUET:field_id": b"2"})])
    import os
    os.makedirs(os.path.dirname(path), exist_ok=True)
    pq.write_table(pa.table([granules, rows], schema=schema), path)
    print(json.dumps({"location": f"file://{path}", "size": os.path.getsize(path),
                      "count": len(pairs),
                      "lower": {"granule": min(granules), "rows": min(rows)},
                      "upper": {"granule": max(granules), "rows": max(rows)}}))


def scan(path, table, array):
    repo = ic.Repository.open(storage(path))
    head = repo.lookup_branch("main")
    pointer = (repo.lookup_snapshot(head).metadata or {}).get(POINTERS, {}).get(table)
    rows = []
    if pointer:
        rows = sorted([r["granule"], r["rows"]]
                      for r in StaticTable.from_metadata(pointer).scan().to_arrow().to_pylist())
    values = zarr.open_array(repo.readonly_session("main").store, path=array, mode="r")[:]
    print(json.dumps({"snapshot": head, "commits": len(list(repo.ancestry(branch="main"))),
                      "pointer": pointer, "rows": rows,
                      "array": [v.item() for v in values]}))


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "build":
        build(sys.argv[2], sys.argv[3])
    elif command == "build-malformed":
        build_malformed(sys.argv[2], sys.argv[3])
    elif command == "table-metadata":
        location, uri = new_table(sys.argv[2], sys.argv[3])
        print(json.dumps({"location": location, "metadata": uri}))
    elif command == "next-version":
        print(json.dumps({"metadata": next_version(sys.argv[2], step=sys.argv[3])}))
    elif command == "data-file":
        data_file(sys.argv[2], sys.argv[3:])
    elif command == "scan":
        scan(sys.argv[2], sys.argv[3], sys.argv[4])
    elif command == "read":
        read(sys.argv[2])
    else:
        raise SystemExit("unknown command " + command)
