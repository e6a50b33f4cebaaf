"""Sets the stage for bench/run.sh on one server, through its Iceberg REST API only.

Every server gets the same namespaces and tables, created over one kept-alive connection:

  hot/t                     the hot table
  spread/s000 ... s099      loads spread over 100 tables
  mixed/r00 ... r49         read during the mixed measurement
  mixed/w00 ... w49         committed to during the mixed measurement
  creates/                  createTable, one client
  sequential/c01            sequential commits
  concurrent/c01 ... c16    16 committers, one table each
  appends/a01               sequential appends (a real manifest list per commit)
  appends/shared            16 appenders on one table
  big/b00 ... b15           16 tables of --snapshots snapshots each (--big only)

A big table gets its snapshots through ordinary commits of add-snapshot and set-snapshot-ref
updates, --batch snapshots per commit, each with a summary like an engine's append writes; their
manifest lists are never read by a catalog. Usage:

  setup_catalog.py BASE_URL --token TOKEN [--big] [--snapshots N] [--batch N] [--only small|big]
"""

import argparse
import http.client
import json
import sys
import time
import urllib.parse

SCHEMA = {"type": "struct", "schema-id": 0, "fields": [
    {"id": 1, "name": "id", "required": True, "type": "long"},
    {"id": 2, "name": "value", "required": False, "type": "string"}]}
# Appenders retry a lost race quickly and often, the same on every server.
APPEND_PROPERTIES = {"commit.retry.num-retries": "1000", "commit.retry.min-wait-ms": "5",
                     "commit.retry.max-wait-ms": "200", "commit.retry.total-timeout-ms": "600000"}


class Api:
    """One kept-alive HTTP connection to a catalog's prefix URL."""

    def __init__(self, base: str, token: str):
        url = urllib.parse.urlsplit(base)
        self.host, self.port = url.hostname, url.port
        self.path = url.path.rstrip("/")
        self.headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        self.connection = http.client.HTTPConnection(self.host, self.port, timeout=300)

    def call(self, method: str, path: str, body=None, ok=(200, 204)):
        data = None if body is None else json.dumps(body).encode()
        for attempt in range(3):
            try:
                self.connection.request(method, self.path + path, body=data, headers=self.headers)
                response = self.connection.getresponse()
                payload = response.read()
                break
            except (http.client.HTTPException, OSError):
                self.connection.close()
                self.connection = http.client.HTTPConnection(self.host, self.port, timeout=300)
                if attempt == 2:
                    raise
                time.sleep(1)
        if response.status not in ok:
            sys.exit(f"{method} {self.path + path} answered {response.status}: {payload[:500]!r}")
        return json.loads(payload) if payload else None

    def namespace(self, name: str):
        self.call("POST", "/namespaces", {"namespace": [name]})

    def table(self, namespace: str, name: str, properties=None):
        return self.call("POST", f"/namespaces/{namespace}/tables",
                         {"name": name, "schema": SCHEMA, "stage-create": False,
                          "properties": properties or {}})


def snapshot(snapshot_id: int, parent: int | None, sequence: int, location: str, total: int):
    """An append's snapshot as an engine commits it, with a summary like the one Iceberg's writers
    fill in (a little shorter: 5,000 of them make a metadata file of about 2 MB)."""
    summary = {"operation": "append", "added-data-files": "1", "added-records": "1000",
               "added-files-size": "81920", "total-records": str(total * 1000),
               "total-files-size": str(total * 81920), "total-data-files": str(total),
               "engine-name": "bench"}
    return {"snapshot-id": snapshot_id, **({"parent-snapshot-id": parent} if parent else {}),
            "sequence-number": sequence, "timestamp-ms": 1_700_000_000_000 + sequence * 1000,
            "manifest-list": f"{location}/metadata/snap-{snapshot_id}-1-manifest-list.avro",
            "summary": summary, "schema-id": 0}


def big_table(api: Api, name: str, snapshots: int, batch: int):
    created = api.table("big", name)
    location = created["metadata"]["location"]
    last_sequence = created["metadata"].get("last-sequence-number", 0)
    base_id = 10_000_000 * (int(name[1:]) + 1)
    parent = None
    for start in range(0, snapshots, batch):
        updates = []
        for n in range(start, min(start + batch, snapshots)):
            snapshot_id = base_id + n
            last_sequence += 1
            updates.append({"action": "add-snapshot",
                            "snapshot": snapshot(snapshot_id, parent, last_sequence, location,
                                                 n + 1)})
            parent = snapshot_id
        updates.append({"action": "set-snapshot-ref", "ref-name": "main", "type": "branch",
                        "snapshot-id": parent})
        api.call("POST", f"/namespaces/big/tables/{name}", {"requirements": [], "updates": updates})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("base")
    parser.add_argument("--token", required=True)
    parser.add_argument("--only", choices=["small", "big"])
    parser.add_argument("--snapshots", type=int, default=5000)
    parser.add_argument("--batch", type=int, default=500)
    args = parser.parse_args()
    api = Api(args.base, args.token)
    if args.only != "big":
        for namespace in ("hot", "spread", "mixed", "creates", "sequential", "concurrent",
                          "appends"):
            api.namespace(namespace)
        api.table("hot", "t")
        for i in range(100):
            api.table("spread", f"s{i:03d}")
        for i in range(50):
            api.table("mixed", f"r{i:02d}")
            api.table("mixed", f"w{i:02d}")
        api.table("sequential", "c01")
        for i in range(1, 17):
            api.table("concurrent", f"c{i:02d}")
        api.table("appends", "a01", APPEND_PROPERTIES)
        api.table("appends", "shared", APPEND_PROPERTIES)
    if args.only != "small":
        api.namespace("big")
        for i in range(16):
            big_table(api, f"b{i:02d}", args.snapshots, args.batch)


if __name__ == "__main__":
    main()
