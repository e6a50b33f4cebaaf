"""Scan planning on the client against planning on the server, with PyIceberg 0.12 as the engine.

Floe serves a table on moto (S3) behind a proxy on loopback (bench/delay_proxy.py) that waits
--delay-ms before forwarding every request, Floe's and the client's alike, and counts each one's
requests and bytes. Two tables are built with no delay:

  files      10,000 small Parquet data files in 1,000 manifests of 10 files each, identity-
             partitioned on `part` (250 values, the 4 manifests of a value holding nothing else),
             in one snapshot: the manifests are written with PyIceberg's manifest writer and
             committed as one fast append.
  snapshots  40 data files in one manifest, then --snapshots snapshots in all: the extra ones are
             committed as add-snapshot updates (in batches) that reuse the real snapshot's manifest
             list, so the table's metadata holds them all and its current snapshot reads as usual.

Then, with the delay on, for each table, each filter (none, and `part = 7`, which only 4 of the
1,000 manifests can match) and each way of planning (PyIceberg's own, and the catalog property
`scan-planning-mode=server`), a fresh catalog times loadTable, plan_files() to the last task, and
for the selective filter the whole read (`to_arrow()`) and the first batch of
`to_arrow_batch_reader()`; the proxy counts what the client and what Floe asked of the store
meanwhile. Each is measured --rounds times, the two ways taking turns; the best round is kept.
Prints a markdown table and writes the figures as JSON to --json.

    python bench/scan_planning.py [--delay-ms 30] [--rounds 2] [--snapshots 5000] [--json F]
"""

import argparse
import concurrent.futures
import contextlib
import io
import json
import logging
import os
import pathlib
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]
                       / "bootstrap" / "src" / "test" / "python"))
import boto3  # noqa: E402
import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402
from pyiceberg.catalog.rest import RestCatalog  # noqa: E402
from pyiceberg.io.pyarrow import (compute_statistics_plan,  # noqa: E402
                                  data_file_statistics_from_parquet_metadata,
                                  parquet_path_to_id_mapping)
from pyiceberg.manifest import (DataFile, DataFileContent, FileFormat,  # noqa: E402
                                ManifestEntry, ManifestEntryStatus)
from pyiceberg.partitioning import PartitionField, PartitionSpec  # noqa: E402
from pyiceberg.schema import Schema  # noqa: E402
from pyiceberg.transforms import IdentityTransform  # noqa: E402
from pyiceberg.typedef import Record  # noqa: E402
from pyiceberg.types import IntegerType, LongType, NestedField, StringType  # noqa: E402

from conftest import JAR, serve, _free_port  # noqa: E402

BUCKET = "plan-lake"
ROLE = "arn:aws:iam::123456789012:role/floe-tables"
KEY, SECRET = "floe-server-key", "floe-server-secret"
PARTS = 250                 # values of the partition column
FILES_PER_MANIFEST = 10
MANIFESTS = 1000            # 4 per value of `part`
ROWS_PER_FILE = 100
SELECTIVE = "part = 7"

SCHEMA = Schema(NestedField(1, "id", LongType(), required=True),
                NestedField(2, "part", IntegerType(), required=True),
                NestedField(3, "payload", StringType(), required=False))
SPEC = PartitionSpec(PartitionField(source_id=2, field_id=1000, transform=IdentityTransform(),
                                    name="part"))
ARROW = pa.schema([   # with the field ids Iceberg's readers need in a Parquet file
    pa.field("id", pa.int64(), nullable=False, metadata={"PARQUET:field_id": "1"}),
    pa.field("part", pa.int32(), nullable=False, metadata={"PARQUET:field_id": "2"}),
    pa.field("payload", pa.string(), metadata={"PARQUET:field_id": "3"})])


def rows(part, start=0):
    ids = list(range(start, start + ROWS_PER_FILE))
    return pa.table({"id": ids, "part": [part] * len(ids),
                     "payload": [f"row {i} of part {part}" for i in ids]}, schema=ARROW)


class Store:
    """moto in a process of its own and the delay proxy in front of it."""

    def __init__(self, work: pathlib.Path, stack: contextlib.ExitStack):
        python = sys.executable
        self.moto_port = _free_port()
        moto = subprocess.Popen([python, "-m", "moto.server", "-H", "127.0.0.1", "-p",
                                 str(self.moto_port)], stdout=subprocess.DEVNULL,
                                stderr=open(work / "moto.log", "w"))
        stack.callback(stop, moto)
        port_file = work / "proxy.port"
        proxy = subprocess.Popen([python, str(pathlib.Path(__file__).with_name("delay_proxy.py")),
                                  str(self.moto_port), "--port-file", str(port_file)],
                                 stderr=open(work / "proxy.log", "w"))
        stack.callback(stop, proxy)
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.moto_port}/", timeout=2).read()
                if port_file.exists() and port_file.read_text():
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("moto or the proxy did not start")
            time.sleep(0.3)
        self.proxy_port = int(port_file.read_text())
        self.s3 = boto3.client("s3", endpoint_url=f"http://127.0.0.1:{self.moto_port}",
                               region_name="us-east-1", aws_access_key_id=KEY,
                               aws_secret_access_key=SECRET)
        self.s3.create_bucket(Bucket=BUCKET)

    def control(self, path, method="POST"):
        request = urllib.request.Request(f"http://127.0.0.1:{self.proxy_port}/__bench/{path}",
                                         method=method, data=b"" if method == "POST" else None)
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())


def stop(process):
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()


def call(floe, method, path, body=None, base=None):
    request = urllib.request.Request((base or f"http://127.0.0.1:{floe.port}") + path,
                                     data=None if body is None else json.dumps(body).encode(),
                                     method=method)
    request.add_header("Authorization", f"Bearer {floe.token}")
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=300) as response:
        text = response.read()
        return json.loads(text) if text else None


def key_of(location: str) -> str:
    return location.split(f"s3://{BUCKET}/", 1)[1]


def build_files_table(catalog, store, manifests=MANIFESTS):
    """10,000 data files in 1,000 manifests, one snapshot."""
    table = catalog.create_table("plan.files", schema=SCHEMA, partition_spec=SPEC,
                                 properties={"commit.manifest-merge.enabled": "false"})
    location = table.metadata.location
    stats_plan = compute_statistics_plan(table.schema(), table.properties)
    mapping = parquet_path_to_id_mapping(table.schema())
    blobs = {}
    for part in range(PARTS):
        buffer = io.BytesIO()
        pq.write_table(rows(part), buffer)
        blob = buffer.getvalue()
        statistics = data_file_statistics_from_parquet_metadata(
            parquet_metadata=pq.read_metadata(io.BytesIO(blob)), stats_columns=stats_plan,
            parquet_column_mapping=mapping)
        blobs[part] = (blob, statistics)

    files = []   # (manifest number, DataFile)
    for m in range(manifests):
        part = m % PARTS
        blob, statistics = blobs[part]
        for f in range(FILES_PER_MANIFEST):
            path = f"{location}/data/part={part}/m{m:04d}-f{f}.parquet"
            files.append((m, path, blob, DataFile.from_args(
                content=DataFileContent.DATA, file_path=path, file_format=FileFormat.PARQUET,
                partition=Record(part), file_size_in_bytes=len(blob), sort_order_id=None,
                spec_id=table.metadata.default_spec_id, equality_ids=None, key_metadata=None,
                **statistics.to_serialized_dict())))
    started = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda f: store.s3.put_object(Bucket=BUCKET, Key=key_of(f[1]), Body=f[2]),
                      files))
    print(f"  {len(files)} data files written in {time.monotonic() - started:.0f} s", flush=True)

    started = time.monotonic()
    with table.transaction() as tx:
        with tx.update_snapshot().fast_append() as append:
            for _, _, _, data_file in files:
                append.append_data_file(data_file)   # the snapshot's summary counts them

            def written_manifests():   # ten files a manifest instead of one manifest for them all
                def one(m):
                    with append.new_manifest_writer(spec=tx.table_metadata.spec()) as writer:
                        for _, _, _, data_file in files[m * FILES_PER_MANIFEST:
                                                        (m + 1) * FILES_PER_MANIFEST]:
                            writer.add(ManifestEntry.from_args(
                                status=ManifestEntryStatus.ADDED,
                                snapshot_id=append.snapshot_id, sequence_number=None,
                                file_sequence_number=None, data_file=data_file))
                    return writer.to_manifest_file()
                with concurrent.futures.ThreadPoolExecutor(8) as pool:
                    return list(pool.map(one, range(manifests)))

            append._manifests = written_manifests
    print(f"  {manifests} manifests committed in {time.monotonic() - started:.0f} s", flush=True)


def build_snapshots_table(catalog, floe, snapshots, batch=500):
    """One real append of 40 files, then snapshots that reuse its manifest list."""
    table = catalog.create_table("plan.snapshots", schema=SCHEMA, partition_spec=SPEC)
    table.append(pa.concat_tables([rows(part, part * 1000) for part in range(40)]))
    table = catalog.load_table("plan.snapshots")
    current = table.current_snapshot()
    parent, sequence = current.snapshot_id, current.sequence_number
    summary = {k: v for k, v in current.summary.additional_properties.items()}
    summary["operation"] = "append"
    path = f"/v1/{floe.warehouse}/namespaces/plan/tables/snapshots"
    started = time.monotonic()
    for start in range(1, snapshots, batch):
        updates = []
        for n in range(start, min(start + batch, snapshots)):
            sequence += 1
            snapshot_id = 9_000_000_000 + n
            updates.append({"action": "add-snapshot", "snapshot": {
                "snapshot-id": snapshot_id, "parent-snapshot-id": parent,
                "sequence-number": sequence, "timestamp-ms": int(time.time() * 1000),
                "manifest-list": current.manifest_list, "summary": summary, "schema-id": 0}})
            parent = snapshot_id
        updates.append({"action": "set-snapshot-ref", "ref-name": "main", "type": "branch",
                        "snapshot-id": parent})
        call(floe, "POST", path, {"requirements": [], "updates": updates}, base=floe.uri)
    count = len(catalog.load_table("plan.snapshots").metadata.snapshots)
    print(f"  {count} snapshots committed in {time.monotonic() - started:.0f} s", flush=True)
    return count


def measure(floe, store, table_name, row_filter, mode, read):
    properties = {"scan-planning-mode": "server"} if mode == "server" else {}
    catalog = RestCatalog("floe", uri=floe.uri, warehouse=floe.warehouse, token=floe.token,
                          **properties)
    store.control("reset")
    figures = {}
    started = time.monotonic()
    table = catalog.load_table(f"plan.{table_name}")
    figures["load_s"] = time.monotonic() - started
    scan = table.scan(row_filter=row_filter) if row_filter else table.scan()
    planning = time.monotonic()
    tasks = list(scan.plan_files())
    figures["plan_s"] = time.monotonic() - planning
    figures["tasks"] = len(tasks)
    figures["load_plan_s"] = time.monotonic() - started
    stats = store.control("stats", "GET")
    figures["client"] = stats["client"]
    figures["floe"] = stats["floe"]
    if read:
        started = time.monotonic()
        table = catalog.load_table(f"plan.{table_name}")
        scan = table.scan(row_filter=row_filter) if row_filter else table.scan()
        reader = scan.to_arrow_batch_reader()
        reader.read_next_batch()
        figures["first_batch_s"] = time.monotonic() - started
        reader.close()
        started = time.monotonic()
        table = catalog.load_table(f"plan.{table_name}")
        scan = table.scan(row_filter=row_filter) if row_filter else table.scan()
        figures["rows"] = scan.to_arrow().num_rows
        figures["end_to_end_s"] = time.monotonic() - started
    return figures


def measure_java(floe, store, table_name, row_filter, mode, rounds):
    """Iceberg's Java client (bench/PlanScan.java on Floe's jar), all rounds in one JVM."""
    command = ["java", "-cp", str(JAR),
               str(pathlib.Path(__file__).with_name("PlanScan.java")), floe.uri, floe.warehouse,
               floe.token, mode, table_name, (row_filter or "none").replace(" ", ""), str(rounds),
               f"http://127.0.0.1:{store.proxy_port}/__bench"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=900)
    if done.returncode != 0:
        raise RuntimeError(f"the Java client failed:\n{done.stderr[-3000:]}")
    figures = []
    for line in done.stdout.splitlines():
        if line.startswith("{"):
            one = json.loads(line)
            stats = one.pop("stats")
            figures.append({**one, "client": stats["client"], "floe": stats["floe"]})
    return figures


def load_average():
    return " ".join(pathlib.Path("/proc/loadavg").read_text().split()[:3])


def markdown(results, facts):
    lines = [
        "| engine | table | filter | planned by | load + plan | plan_files | tasks | first batch | "
        "load + plan + read | client's store requests (GET/HEAD) | client's bytes in | "
        "Floe's store requests | Floe's bytes in |",
        "|---|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|"]

    def seconds(value):
        return "–" if value is None else (f"{value * 1000:.0f} ms" if value < 10
                                          else f"{value:.1f} s")

    def size(n):
        return f"{n / 1048576:.1f} MiB" if n >= 1048576 else f"{n / 1024:.0f} KiB"

    for r in results:
        f = r["best"]
        lines.append(
            f"| {r['engine']} | {r['table']} | {r['filter'] or 'none'} | {r['mode']} | {seconds(f['load_plan_s'])}"
            f" | {seconds(f['plan_s'])} | {f['tasks']} | {seconds(f.get('first_batch_s'))} | "
            f"{seconds(f.get('end_to_end_s'))} | {f['client']['requests']} "
            f"({f['client']['gets']}/{f['client']['heads']}) | {size(f['client']['bytes_in'])} | "
            f"{f['floe']['requests']} | {size(f['floe']['bytes_in'])} |")
    lines.append("")
    for engine, table, flt in [(e, t, f) for e in ("PyIceberg", "Java")
                               for t in ("files", "snapshots") for f in (SELECTIVE, None)]:
        pair = {r["mode"]: r["best"] for r in results
                if r["engine"] == engine and r["table"] == table and r["filter"] == flt}
        if len(pair) < 2:
            continue
        key = "end_to_end_s" if "end_to_end_s" in pair["server"] else "load_plan_s"
        ratio = pair["client"][key] / pair["server"][key]
        lines.append(f"- {engine}, {table}, filter {flt or 'none'}: client/server "
                     f"{'load + plan + read' if key == 'end_to_end_s' else 'load + plan'}"
                     f" = {ratio:.2f}×")
    lines.append("")
    lines.append(f"Delay per store request {facts['delay_ms']} ms (Floe and client alike); "
                 f"{facts['snapshots']} snapshots in the snapshots table; best of "
                 f"{facts['rounds']} rounds; load average {facts['load_start']} at the start, "
                 f"{facts['load_measure']} when measuring began, {facts['load_end']} at the end; "
                 f"{os.cpu_count()} cores.")
    return "\n".join(lines)


def write_section(page: pathlib.Path, report: str, facts: dict):
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    section = "\n".join([
        "## Scan planning", "",
        f"Generated by `bash bench/scan_planning.sh` on {time.strftime('%Y-%m-%d', time.gmtime())}"
        f" at commit `{commit}`; rerun it to replace this section (`bench/run.sh` keeps it). "
        "How it is measured: [Running the benchmarks](running-benchmarks.md#scan-planning).", "",
        f"Tables on moto (S3) behind a proxy that waits {facts['delay_ms']:g} ms before every "
        "object-store request, Floe's and the client's alike. *files*: 10,000 data files in "
        "1,000 manifests, one snapshot, partitioned on `part` (250 values, 4 manifests each). "
        f"*snapshots*: {facts['snapshots']} snapshots, the current one 40 files in one manifest. "
        "`part = 7` can match 4 of the files table's 1,000 manifests. Each client is fresh (a "
        "new catalog) and loads the table first; *load + plan + read* is a second fresh load, "
        "plan and the whole read of the rows (PyIceberg `to_arrow()`, Java `IcebergGenerics`); "
        "*first batch* is PyIceberg's `to_arrow_batch_reader()` to its first batch. Store "
        "requests and bytes are counted during load + plan; the bytes are what the store "
        "answered. The ratios are the client-planned time over the server-planned one (above "
        "1: planning on the server is faster).", "",
        report, ""])
    text = page.read_text() if page.exists() else ""
    start = text.find("\n## Scan planning\n")
    if start >= 0:
        end = text.find("\n## ", start + 1)
        text = text[:start + 1] + section + ("\n" + text[end + 1:] if end >= 0 else "")
    else:
        text = text.rstrip("\n") + ("\n\n" if text else "") + section
    page.write_text(text)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--delay-ms", type=float, default=30)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--snapshots", type=int, default=5000)
    parser.add_argument("--manifests", type=int, default=MANIFESTS,
                        help="fewer for trying the script out")
    parser.add_argument("--no-java", dest="java", action="store_false",
                        help="PyIceberg only, not Iceberg's Java client")
    parser.add_argument("--json")
    parser.add_argument("--output", help="a directory whose benchmarks.md gets (or has replaced) "
                                         "the section \"Scan planning\"")
    args = parser.parse_args()
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    facts = {"delay_ms": args.delay_ms, "rounds": args.rounds, "load_start": load_average()}
    results = []
    with tempfile.TemporaryDirectory() as work, contextlib.ExitStack() as stack:
        work = pathlib.Path(work)
        store = Store(work, stack)
        data = work / "floe-data"
        data.mkdir()
        floe = stack.enter_context(serve(data))
        store.control(f"floe/{floe.process.pid}")
        call(floe, "POST", f"/orgs/{floe.warehouse}/buckets", {
            "nickname": BUCKET, "platform": "s3-compatible", "name": BUCKET,
            "endpoint": f"http://127.0.0.1:{store.proxy_port}", "region": "us-east-1",
            "path_style": True, "auth": {"method": "static", "access_key_id": KEY,
                                         "secret_access_key": SECRET, "role_arn": ROLE}})
        catalog = RestCatalog("floe", uri=floe.uri, warehouse=floe.warehouse, token=floe.token)
        catalog.create_namespace("plan", {"floe.bucket": BUCKET})
        started = time.monotonic()
        print("building the tables (no delay)", flush=True)
        build_files_table(catalog, store, args.manifests)
        facts["snapshots"] = build_snapshots_table(catalog, floe, args.snapshots)
        facts["build_s"] = round(time.monotonic() - started)

        # Floe's planning path and PyIceberg's, run once untimed: rounds judge the warm state.
        for table in ("files", "snapshots"):
            for mode in ("client", "server"):
                measure(floe, store, table, SELECTIVE, mode, read=False)
        store.control(f"delay/{args.delay_ms:g}")
        facts["load_measure"] = load_average()
        started = time.monotonic()
        for table in ("files", "snapshots"):
            for row_filter in (SELECTIVE, None):
                rounds = {"client": [], "server": []}
                for n in range(args.rounds):
                    for mode in ("client", "server") if n % 2 == 0 else ("server", "client"):
                        figures = measure(floe, store, table, row_filter, mode,
                                          read=row_filter is not None)
                        rounds[mode].append(figures)
                        print(f"  {table} {row_filter or 'no filter'} {mode} round {n + 1}: "
                              f"load+plan {figures['load_plan_s']:.2f} s, "
                              f"{figures['tasks']} tasks, end to end "
                              f"{figures.get('end_to_end_s', float('nan')):.2f} s, client "
                              f"{figures['client']['requests']} requests, Floe "
                              f"{figures['floe']['requests']}", flush=True)
                for mode, figures in rounds.items():
                    key = "end_to_end_s" if row_filter else "load_plan_s"
                    results.append({"engine": "PyIceberg", "table": table, "filter": row_filter, "mode": mode,
                                    "best": min(figures, key=lambda f: f[key]),
                                    "rounds": figures})
                if not args.java:
                    continue
                for mode in ("client", "server"):
                    figures = measure_java(floe, store, table, row_filter, mode, args.rounds)
                    for n, f in enumerate(figures):
                        print(f"  Java {table} {row_filter or 'no filter'} {mode} round {n + 1}: "
                              f"load+plan {f['load_plan_s']:.2f} s, {f['tasks']} tasks, end to "
                              f"end {f.get('end_to_end_s', float('nan')):.2f} s, client "
                              f"{f['client']['requests']} requests, Floe "
                              f"{f['floe']['requests']}", flush=True)
                    key = "end_to_end_s" if row_filter else "load_plan_s"
                    results.append({"engine": "Java", "table": table, "filter": row_filter,
                                    "mode": mode, "best": min(figures, key=lambda f: f[key]),
                                    "rounds": figures})
        facts["measure_s"] = round(time.monotonic() - started)
        facts["load_end"] = load_average()
    report = markdown(results, facts)
    print(report)
    if args.output:
        write_section(pathlib.Path(args.output) / "benchmarks.md", report, facts)
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps({"facts": facts, "results": results},
                                                      indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
