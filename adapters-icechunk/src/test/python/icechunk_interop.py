"""Python Icechunk side of Floe's interop tests.

Each command prints one JSON document on stdout, which the JUnit tests compare with what Floe
reads or wrote. Commands:
  build DIR          build a repository with Python (groups, arrays, chunks, commits, refs)
  describe DIR       describe a repository as Python Icechunk + zarr sees it
  commit-on-top DIR BRANCH   add a commit with Python on BRANCH
  corpus-write DIR CORPUS    one commit per JSON value of the CORPUS file (metadata {"v": value}),
                             and group /caseN with attributes {"v": value}; prints what it reads
  corpus-read DIR            what Python reads from such a repository (whoever wrote it)
  gc-build DIR               refs for garbage collection: a tag pinning an old snapshot, a live
                             branch, an abandoned (deleted) branch; table pointers in every commit
  gc-run DIR DRY             Python's garbage collection of everything unreachable ("true": dry run)
"""
import asyncio
import base64
import json
import sys
import warnings

import icechunk as ic
import numpy as np
import zarr
from zarr.core.buffer import default_buffer_prototype

warnings.filterwarnings("ignore")


def storage(path):
    return ic.local_filesystem_storage(path)


def build(path):
    repo = ic.Repository.create(storage(path))
    s = repo.writable_session("main")
    root = zarr.group(s.store, attributes={"title": "interop", "nested": {"k": [1, 2.5, None, True]}})
    g = root.create_group("weather/stations", attributes={"count": 3})
    t = root.create_array("weather/temp", shape=(20,), chunks=(5,), dtype="float32",
                          attributes={"units": "K"})
    t[:] = np.arange(20, dtype="float32") * 1.5
    big = root.create_array("big", shape=(300,), chunks=(100,), dtype="float64", compressors=None)
    big[:] = np.linspace(0, 1, 300)
    first = s.commit("first commit", metadata={"author": "py", "run": {"n": 1, "tags": ["a", "b"]}})

    s = repo.writable_session("main")
    root = zarr.open_group(s.store)
    grid = root.create_array("weather/stations/grid", shape=(30, 40), chunks=(10, 20), dtype="int16",
                             dimension_names=["y", "x"], fill_value=-1)
    grid[0:10, 0:20] = 7
    grid[20:30, 20:40] = np.arange(200, dtype="int16").reshape(10, 20)
    flags = root.create_array("flags", shape=(8,), chunks=(8,), dtype="bool")
    flags[:] = [True, False, True, True, False, False, True, False]
    root["big"][100:200] = 42.0
    root.attrs["title"] = "interop v2"
    second = s.commit("second commit", metadata={"ok": True, "score": 0.5, "ints": [1, -2, 3]})

    repo.create_tag("v1", first)
    repo.create_branch("dev", second)
    s = repo.writable_session("dev")
    root = zarr.open_group(s.store)
    i64 = root.create_array("counts", shape=(4,), chunks=(2,), dtype="int64")
    i64[:] = [10, 20, 30, 40]
    s.commit("dev commit", metadata={})
    print(json.dumps(describe_repo(repo)))


def build_v1(path):
    """A spec-version-1 repository (refs/ files, MessagePack metadata), as Icechunk 1.x wrote."""
    repo = ic.Repository.create(storage(path), spec_version=1)
    s = repo.writable_session("main")
    root = zarr.group(s.store, attributes={"legacy": True})
    arr = root.create_array("old/values", shape=(6,), chunks=(3,), dtype="int32")
    arr[:] = [1, 2, 3, 4, 5, 6]
    first = s.commit("v1 commit", metadata={"who": "v1", "list": [1, "a", {"z": True}], "f": 1.5})
    repo.create_tag("t1", first)
    repo.create_tag("gone", first)
    repo.delete_tag("gone")
    repo.create_branch("b1", first)
    print(json.dumps(describe_repo(repo)))


def virtual_access(data_dir):
    prefix = "file://" + data_dir.rstrip("/") + "/"
    return prefix, {prefix: ic.credentials.LocalFileSystemAccess}


def build_virtual(path, data_dir):
    """A repo whose config holds a virtual chunk container and whose array has virtual refs."""
    prefix, access = virtual_access(data_dir)
    np.arange(8, dtype="<i4").tofile(data_dir + "/raw.bin")
    cfg = ic.RepositoryConfig.default()
    cfg.inline_chunk_threshold_bytes = 64
    cfg.set_virtual_chunk_container(ic.VirtualChunkContainer(prefix, ic.local_filesystem_store(data_dir)))
    repo = ic.Repository.create(storage(path), config=cfg, authorize_virtual_chunk_access=access)
    s = repo.writable_session("main")
    root = zarr.group(s.store)
    root.create_array("v", shape=(8,), chunks=(4,), dtype="int32", compressors=None, fill_value=0)
    s.store.set_virtual_ref("v/c/0", prefix + "raw.bin", offset=0, length=16)
    s.store.set_virtual_ref("v/c/1", prefix + "raw.bin", offset=16, length=16)
    print(json.dumps({"id": s.commit("virtual refs")}))


def read_virtual(path, data_dir):
    prefix, access = virtual_access(data_dir)
    repo = ic.Repository.open(storage(path), authorize_virtual_chunk_access=access)
    values = zarr.open_array(repo.readonly_session("main").store, path="v", mode="r")[:].tolist()
    print(json.dumps({"values": values, "containers": sorted(repo.config.virtual_chunk_containers),
                      "inline_threshold": repo.config.inline_chunk_threshold_bytes,
                      "attrs": dict(zarr.open_group(repo.readonly_session("main").store, mode="r").attrs)}))


def chunk_keys(store):
    async def collect():
        return sorted([k async for k in store.list()])
    return asyncio.run(collect())


def raw(store, key):
    async def get():
        b = await store.get(key, prototype=default_buffer_prototype())
        return None if b is None else b.to_bytes()
    return asyncio.run(get())


def describe_session(session):
    store = session.store
    nodes = {}
    chunks = {}
    for key in chunk_keys(store):
        data = raw(store, key)
        if key.endswith("zarr.json"):
            path = "/" + key[: -len("zarr.json")].rstrip("/")
            nodes[path] = json.loads(data)
        else:
            chunks[key] = base64.b64encode(data).decode()
    values = {}
    for path, meta in nodes.items():
        if meta.get("node_type") == "array":
            arr = zarr.open_array(store, path=path.lstrip("/"), mode="r")
            values[path] = arr[...].tolist()
    return {"nodes": nodes, "chunks": chunks, "values": values}


def describe_repo(repo):
    out = {"branches": {}, "tags": {}, "log": {}, "refs": {}}
    for b in sorted(repo.list_branches()):
        out["branches"][b] = repo.lookup_branch(b)
        out["log"][b] = [
            {"id": a.id, "parent": a.parent_id, "message": a.message,
             "time": a.written_at.isoformat(), "metadata": a.metadata}
            for a in repo.ancestry(branch=b)
        ]
        out["refs"]["branch:" + b] = describe_session(repo.readonly_session(branch=b))
    for t in sorted(repo.list_tags()):
        out["tags"][t] = repo.lookup_tag(t)
        out["refs"]["tag:" + t] = describe_session(repo.readonly_session(tag=t))
    return out


def describe(path):
    repo = ic.Repository.open(storage(path))
    print(json.dumps(describe_repo(repo)))


def commit_on_top(path, branch):
    repo = ic.Repository.open(storage(path))
    s = repo.writable_session(branch)
    root = zarr.open_group(s.store)
    arr = root.create_array("from_python", shape=(6,), chunks=(3,), dtype="int32")
    arr[:] = [6, 5, 4, 3, 2, 1]
    root.attrs["python_was_here"] = True
    sid = s.commit("python on top", metadata={"by": "python", "depth": {"x": [1, {"y": None}]}})
    print(json.dumps({"id": sid}))


def python_rebases_over(path, branch, go_file):
    """Opens a session, changes chunk 1 of /values, then waits for Floe to commit (go_file);
    its commit then conflicts and Python rebases over Floe's transaction log."""
    import os
    import time
    repo = ic.Repository.open(storage(path))
    s = repo.writable_session(branch)
    root = zarr.open_group(s.store)
    root["values"][3:6] = [30, 40, 50]
    root.create_group("python_group")
    print(json.dumps({"ready": True}), flush=True)
    for _ in range(600):
        if os.path.exists(go_file):
            break
        time.sleep(0.1)
    result = {"conflicted": False}
    try:
        s.commit("python, maybe after rebase")
    except ic.ConflictError:
        result["conflicted"] = True
        s.rebase(ic.ConflictDetector())
        result["id"] = s.commit("python after rebase")
    else:
        result["id"] = repo.lookup_branch(branch)
    result["values"] = zarr.open_group(repo.readonly_session(branch=branch).store, mode="r")["values"][...].tolist()
    print(json.dumps(result), flush=True)


def corpus_write(path, corpus_file):
    """Writes every value of the corpus (a JSON list; NaN and Infinity allowed) as commit metadata,
    one commit each, and as the attributes of one group each. Values Python refuses are recorded."""
    with open(corpus_file) as f:
        corpus = json.load(f)
    repo = ic.Repository.create(storage(path))
    s = repo.writable_session("main")
    root = zarr.group(s.store)
    refused = []
    for i, value in enumerate(corpus):
        try:
            root.create_group(f"case{i}", attributes={"v": value})
        except Exception:
            refused.append(i)
    s.commit("attributes")
    for i, value in enumerate(corpus):
        s = repo.writable_session("main")
        zarr.open_group(s.store).attrs["case"] = i
        s.commit(f"case {i}", metadata={"v": value})
    out = corpus_read_repo(repo)
    out["refused_attributes"] = refused
    print(json.dumps(out))


def corpus_read_repo(repo):
    commits = {}
    for a in repo.ancestry(branch="main"):
        if a.message.startswith("case "):
            commits[a.message[5:]] = a.metadata.get("v")
    root = zarr.open_group(repo.readonly_session("main").store, mode="r")
    attrs = {}
    for name, group in root.groups():
        if name.startswith("case"):
            attrs[name[4:]] = dict(group.attrs).get("v")
    return {"commits": commits, "attributes": attrs}


def gc_build(path):
    repo = ic.Repository.create(storage(path))
    out = {"commits": {}, "pointers": {}}

    def commit(branch, message, write, version):
        s = repo.writable_session(branch)
        write(zarr.open_group(s.store) if message != "first" else zarr.group(s.store))
        pointers = {"granules": f"file:///warehouse/granules/metadata/{version}.metadata.json"}
        sid = s.commit(message, metadata={"iceberg:table_versions": pointers, "n": version})
        out["commits"][message] = sid
        out["pointers"][sid] = pointers
        return sid

    def first(root):
        a = root.create_array("a", shape=(300,), chunks=(100,), dtype="float64", compressors=None)
        a[:] = np.arange(300, dtype="float64")
        root.create_array("small", shape=(4,), chunks=(4,), dtype="int32")[:] = [1, 2, 3, 4]

    c1 = commit("main", "first", first, 0)
    repo.create_tag("v1", c1)
    c2 = commit("main", "overwrite", lambda root: root["a"].__setitem__(slice(0, 200), 7.0), 1)
    repo.create_branch("abandoned", c2)
    commit("abandoned", "abandoned 1", lambda root: root["a"].__setitem__(slice(0, 300), 9.0), 2)

    def abandoned_array(root):
        b = root.create_array("b", shape=(200,), chunks=(100,), dtype="float64", compressors=None)
        b[:] = 1.5
    commit("abandoned", "abandoned 2", abandoned_array, 3)
    repo.delete_branch("abandoned")
    repo.create_branch("dev", c1)
    commit("dev", "dev", lambda root: root["a"].__setitem__(slice(200, 300), 3.0), 4)
    commit("main", "overwrite again", lambda root: root["a"].__setitem__(slice(100, 300), 5.0), 5)
    out["refs"] = {"branches": {b: [a.id for a in repo.ancestry(branch=b)] for b in repo.list_branches()},
                   "tags": {t: [a.id for a in repo.ancestry(tag=t)] for t in repo.list_tags()}}
    print(json.dumps(out))


def gc_run(path, dry):
    import datetime
    repo = ic.Repository.open(storage(path))
    later = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=1)
    summary = repo.garbage_collect(later, dry_run=(dry == "true"))
    print(json.dumps({k: getattr(summary, k) for k in ("bytes_deleted", "chunks_deleted",
                      "manifests_deleted", "snapshots_deleted", "transaction_logs_deleted")}))


def corpus_read(path):
    print(json.dumps(corpus_read_repo(ic.Repository.open(storage(path)))))


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "build":
        build(sys.argv[2])
    elif command == "build-v1":
        build_v1(sys.argv[2])
    elif command == "python-rebases-over":
        python_rebases_over(sys.argv[2], sys.argv[3], sys.argv[4])
    elif command == "build-virtual":
        build_virtual(sys.argv[2], sys.argv[3])
    elif command == "read-virtual":
        read_virtual(sys.argv[2], sys.argv[3])
    elif command == "describe":
        describe(sys.argv[2])
    elif command == "corpus-write":
        corpus_write(sys.argv[2], sys.argv[3])
    elif command == "gc-build":
        gc_build(sys.argv[2])
    elif command == "gc-run":
        gc_run(sys.argv[2], sys.argv[3])
    elif command == "corpus-read":
        corpus_read(sys.argv[2])
    elif command == "commit-on-top":
        commit_on_top(sys.argv[2], sys.argv[3])
    else:
        raise SystemExit("unknown command " + command)
