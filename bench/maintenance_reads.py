"""The read side of table maintenance: what compaction and snapshot expiry do for readers.

Starts Floe from its jar (embedded PostgreSQL, local bucket, the scheduler off), makes a table of
APPENDS one-row PyIceberg appends, and measures, in ROUNDS rounds each, PyIceberg's scan planning
(`plan_files()` on a freshly loaded table), PyIceberg's full read (`scan().to_arrow()`) and
DuckDB's full read (`SELECT *` through its Iceberg extension). Then it maintains the table in
process, as `floe tables maintain --compact --expire-older-than 0s --retain-last 5` does, and
measures the same again. It prints a Markdown table of the medians and the before/after ratios,
with the machine's cores and load average at start and end. Not part of the test command.

    /path/to/python bench/maintenance_reads.py                # 200 appends, 7 rounds
    /path/to/python bench/maintenance_reads.py --appends 500 --rounds 11 --no-duckdb

Needs Java 17, bootstrap/target/floe.jar (`mvn -B -q -DskipTests package`), and a Python with
pyiceberg[pyarrow] and requests (and duckdb with duckdb-ext-iceberg, -avro and -httpfs for the
DuckDB column), e.g. the test suite's .venv.
"""

import argparse
import contextlib
import os
import pathlib
import shutil
import signal
import socket
import statistics
import subprocess
import tempfile
import time
import urllib.request

import pyarrow as pa
import requests
from pyiceberg.catalog.rest import RestCatalog

ROOT = pathlib.Path(__file__).resolve().parents[1]
NAMESPACE = "bench"
TABLE = "appended"


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def floe(jar, work):
    port = free_port()
    data = work / "floe-data"
    log = open(work / "floe.log", "w")
    process = subprocess.Popen(
        ["java", "-XX:+ExitOnOutOfMemoryError", "-jar", str(jar), "serve", "--port", str(port),
         "--data-dir", str(data), "--maintenance-concurrency", "0"],
        stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 180
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"Floe exited with {process.returncode}; see {work}/floe.log")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/ready", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"Floe did not become ready; see {work}/floe.log")
            time.sleep(0.5)
        yield port, (data / "admin.token").read_text().strip()
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


def duckdb_connection(port, token):
    import duckdb
    import duckdb_ext

    con = duckdb.connect()
    con.execute("SET extension_directory = ?",
                [os.path.join(list(duckdb_ext.__path__)[0], "extensions")])
    for statement in ("LOAD httpfs", "LOAD avro", "LOAD iceberg",
                      f"CREATE SECRET floe_token (TYPE ICEBERG, TOKEN '{token}')",
                      f"ATTACH 'my-org' AS floe (TYPE ICEBERG, "
                      f"ENDPOINT 'http://127.0.0.1:{port}/iceberg', SECRET floe_token)"):
        con.execute(statement)
    return con


def timed(work, rounds):
    """The median of `rounds` runs of `work`, in milliseconds, after one run to warm up."""
    work()
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def measure(catalog, con, rounds, expected_rows):
    name = f"{NAMESPACE}.{TABLE}"

    def plan():
        files = list(catalog.load_table(name).scan().plan_files())
        assert files

    table = catalog.load_table(name)

    def read():
        assert table.scan().to_arrow().num_rows == expected_rows

    results = {"plan": timed(plan, rounds), "read": timed(read, rounds)}
    if con is not None:
        query = f'SELECT * FROM floe."{NAMESPACE}".{TABLE}'

        def duck():
            assert len(con.execute(query).fetchall()) == expected_rows

        results["duckdb"] = timed(duck, rounds)
    fresh = catalog.load_table(name)
    results["files"] = len(fresh.inspect.files())
    results["snapshots"] = len(fresh.snapshots())
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jar", default=str(ROOT / "bootstrap" / "target" / "floe.jar"))
    parser.add_argument("--appends", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--no-duckdb", action="store_true")
    parser.add_argument("--keep-work", action="store_true")
    args = parser.parse_args()

    load_start = os.getloadavg()
    work = pathlib.Path(tempfile.mkdtemp(prefix="floe-maintenance-bench-"))
    try:
        with floe(pathlib.Path(args.jar), work) as (port, token):
            catalog = RestCatalog("floe", uri=f"http://127.0.0.1:{port}/iceberg",
                                  warehouse="my-org", token=token)
            catalog.create_namespace(NAMESPACE)
            schema = pa.schema([pa.field("id", pa.int64(), nullable=False),
                                pa.field("name", pa.string())])
            table = catalog.create_table(f"{NAMESPACE}.{TABLE}", schema=schema)
            start = time.perf_counter()
            for i in range(args.appends):
                table.append(pa.table({"id": [i], "name": [f"row-{i}"]}, schema=schema))
            appending = time.perf_counter() - start
            con = None if args.no_duckdb else duckdb_connection(port, token)
            before = measure(catalog, con, args.rounds, args.appends)

            response = requests.post(
                f"http://127.0.0.1:{port}/orgs/my-org/iceberg/namespaces/{NAMESPACE}/tables/"
                f"{TABLE}/maintenance", headers={"Authorization": f"Bearer {token}"},
                json={"compact": {"target_file_size_bytes": 8 * 1024 * 1024},
                      "expire_snapshots": {"older_than_seconds": 0, "retain_last": 5}},
                timeout=600)
            response.raise_for_status()
            after = measure(catalog, con, args.rounds, args.appends)
        load_end = os.getloadavg()
    finally:
        if args.keep_work:
            print(f"work directory kept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)

    print(f"{args.appends} one-row PyIceberg appends ({appending:.1f} s), medians of "
          f"{args.rounds} rounds; {os.cpu_count()} cores, load average "
          f"{load_start[0]:.2f} at start, {load_end[0]:.2f} at end\n")
    print("| | before | after | before/after |")
    print("|---|---|---|---|")
    print(f"| data files | {before['files']} | {after['files']} | |")
    print(f"| snapshots | {before['snapshots']} | {after['snapshots']} | |")
    rows = [("plan", "PyIceberg: load the table and plan the scan (`plan_files()`)"),
            ("read", "PyIceberg full read (`scan().to_arrow()`)")]
    if "duckdb" in before:
        rows.append(("duckdb", "DuckDB full read (`SELECT *`)"))
    for key, label in rows:
        print(f"| {label} | {before[key]:.1f} ms | {after[key]:.1f} ms | "
              f"{before[key] / after[key]:.1f}x |")


if __name__ == "__main__":
    main()
