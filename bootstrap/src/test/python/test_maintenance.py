"""Table maintenance as a user runs it: 200 one-row PyIceberg appends, then `floe tables
maintain` compacts them and expires the old snapshots; PyIceberg and DuckDB read exactly the
same rows before and after, and a tag taken before still reads."""

import json
import time

import pyarrow as pa
import pytest

import readme
from test_command_line import floe_cli

NAMESPACE = "kept-tables"
APPENDS = 200


@pytest.fixture(scope="module")
def catalog(floe):
    return readme.pyiceberg_catalog(floe)


def read_all(table) -> tuple[list[tuple], float]:
    started = time.perf_counter()
    rows = sorted(tuple(row.values()) for row in table.scan().to_arrow().to_pylist())
    return rows, time.perf_counter() - started


def duck_rows(floe, name: str) -> list[tuple]:
    duck = readme.duckdb_attached(floe)
    return sorted(duck.execute(f'SELECT id, name FROM floe."{NAMESPACE}".{name}').fetchall())


def test_compaction_and_expiry_keep_every_row(catalog, floe):
    catalog.create_namespace(NAMESPACE)
    schema = pa.schema([pa.field("id", pa.int64(), nullable=False), pa.field("name", pa.string())])
    table = catalog.create_table(f"{NAMESPACE}.appended", schema=schema)
    tagged = None
    for i in range(APPENDS):
        table.append(pa.table({"id": [i], "name": [f"row-{i}"]}, schema=schema))
        if i == 49:
            tagged = table.current_snapshot().snapshot_id
            table.manage_snapshots().create_tag(tagged, "first-fifty").commit()
    table = catalog.load_table(f"{NAMESPACE}.appended")
    read_all(table)  # warm
    before, read_before = read_all(table)
    files_before = len(table.inspect.files())
    assert len(before) == APPENDS and files_before == APPENDS
    duck_before = duck_rows(floe, "appended")
    assert duck_before == before

    dry = floe_cli("tables", "maintain", f"{NAMESPACE}.appended", "--compact",
                   "--expire-older-than", "0s", "--retain-last", "5", "--dry-run", floe=floe)
    assert dry.returncode == 0, dry.stderr
    assert "would" in dry.stdout
    assert len(catalog.load_table(f"{NAMESPACE}.appended").inspect.files()) == APPENDS

    done = floe_cli("tables", "maintain", f"{NAMESPACE}.appended", "--compact",
                    "--expire-older-than", "0s", "--retain-last", "5", "--rewrite-manifests",
                    "-o", "json", floe=floe)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["compaction"]["outcome"] == "done"
    assert report["compaction"]["input_files"] == APPENDS

    table = catalog.load_table(f"{NAMESPACE}.appended")
    read_all(table)
    after, read_after = read_all(table)
    files_after = len(table.inspect.files())
    assert after == before
    assert duck_rows(floe, "appended") == before
    assert files_after == 1
    assert len(table.snapshots()) <= 6
    tag = table.scan(snapshot_id=tagged).to_arrow()
    assert sorted(tag.column("id").to_pylist()) == list(range(50))
    print(f"\nPyIceberg full read of {APPENDS} appends: {read_before * 1000:.0f} ms with "
          f"{files_before} files, {read_after * 1000:.0f} ms with {files_after} "
          f"(x{read_before / read_after:.1f})")


def test_a_namespace_policy_applies_to_its_tables(catalog, floe):
    set_policy = floe_cli("namespaces", "policy", NAMESPACE, "--orphan-grace", "3d", floe=floe)
    assert set_policy.returncode == 0, set_policy.stderr
    shown = floe_cli("tables", "policy", f"{NAMESPACE}.appended", floe=floe)
    assert shown.returncode == 0, shown.stderr
    assert "orphan_grace_seconds" in shown.stdout and "259200" in shown.stdout
    assert "(from the namespace)" in shown.stdout

    by_policy = floe_cli("tables", "maintain", f"{NAMESPACE}.appended", "--dry-run", "-o", "json",
                         floe=floe)
    assert by_policy.returncode == 0, by_policy.stderr
    report = json.loads(by_policy.stdout)
    assert report["orphans"]["outcome"] in ("dry-run", "nothing-to-do")
    assert report["compaction"] is None

    removed = floe_cli("namespaces", "policy", NAMESPACE, "--delete", floe=floe)
    assert removed.returncode == 0, removed.stderr
    nothing = floe_cli("tables", "maintain", f"{NAMESPACE}.appended", floe=floe)
    assert nothing.returncode != 0
    assert "no maintenance policy" in (nothing.stderr + nothing.stdout)
