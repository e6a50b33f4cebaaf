"""Commits to a repo Floe created, as any Icechunk 2.3 user would: open it at its storage
location, write a group and an array with attributes, commit with nested metadata, tag it.

Usage: repo_commit.py <local repository directory>
Prints {"snapshot_id": ..., "log": [messages of main, newest first]} as JSON.
"""
import json
import sys

import icechunk as ic
import numpy as np
import zarr


def main(path):
    repo = ic.Repository.open(ic.local_filesystem_storage(path))
    session = repo.writable_session("main")
    root = zarr.group(session.store, attributes={"title": "written by Python"})
    climate = root.create_group("climate", attributes={"title": "Climate"})
    t2m = climate.create_array("t2m", shape=(4,), chunks=(2,), dtype="float32",
                               attributes={"units": "K", "levels": [1000, 850]})
    t2m[:] = np.arange(4, dtype="float32")
    snapshot = session.commit("python commit",
                              metadata={"author": "python", "run": {"id": 7, "tags": ["a", "b"]}})
    repo.create_tag("v1", snapshot)
    log = [entry.message for entry in repo.ancestry(branch="main")]
    print(json.dumps({"snapshot_id": snapshot, "log": log}))


if __name__ == "__main__":
    main(sys.argv[1])
