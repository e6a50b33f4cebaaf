"""Python icechunk 2.3's side of IcechunkS3RaceTest: commits racing Floe's on one branch of a
repository on an S3-compatible server (moto) that enforces If-Match / If-None-Match.

Usage: icechunk_s3_race.py <endpoint> <bucket> <prefix> <access key> <secret key>

Reads one command a line from stdin and answers each with one JSON line on stdout:
  prepare <round>           open a writable session on main, write chunk <round> of /python
                            (values round*1000 + i); answers {"base": <snapshot the session is on>}
  go <epoch ns>             sleep until that instant, then commit; on a conflict, rebase with
                            icechunk's ConflictDetector and commit again; answers
                            {"conflicted", "error", "first_id", "id", "start_ns", "end_ns"}
  describe                  {"log": [{"id", "parent", "message"}], "floe": [...], "python": [...]}
  quit
"""
import json
import sys
import time

import icechunk as ic
import numpy as np
import zarr

CHUNK = 200


def main(endpoint, bucket, prefix, access_key, secret_key):
    storage = ic.s3_storage(bucket=bucket, prefix=prefix, endpoint_url=endpoint, allow_http=True,
                            force_path_style=True, region="us-east-1",
                            access_key_id=access_key, secret_access_key=secret_key)
    session = None
    round_no = None
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        command = words[0]
        if command == "prepare":
            round_no = int(words[1])
            repo = ic.Repository.open(storage)
            session = repo.writable_session("main")
            values = zarr.open_array(session.store, path="python", mode="r+")
            values[round_no * CHUNK:(round_no + 1) * CHUNK] = (
                round_no * 1000 + np.arange(CHUNK, dtype="int32"))
            answer({"base": session.snapshot_id})
        elif command == "go":
            target = int(words[1])
            while time.time_ns() < target:
                pass
            result = {"conflicted": False, "error": None}
            result["start_ns"] = time.time_ns()
            try:
                result["first_id"] = session.commit(f"python round {round_no}",
                                                    metadata={"by": "python", "round": round_no})
                result["id"] = result["first_id"]
            except ic.ConflictError as e:
                result["end_first_ns"] = time.time_ns()
                result["conflicted"] = True
                result["error"] = f"{type(e).__name__}: {e}"
                session.rebase(ic.ConflictDetector())
                result["id"] = session.commit(f"python round {round_no} (rebased)",
                                              metadata={"by": "python", "round": round_no})
            result["end_ns"] = time.time_ns()
            answer(result)
        elif command == "describe":
            repo = ic.Repository.open(storage)
            log = [{"id": s.id, "parent": s.parent_id, "message": s.message}
                   for s in repo.ancestry(branch="main")]
            root = zarr.open_group(repo.readonly_session(branch="main").store, mode="r")
            answer({"log": log, "floe": root["floe"][...].tolist(),
                    "python": root["python"][...].tolist()})
        elif command == "quit":
            return
        else:
            raise SystemExit(f"unknown command {line!r}")


def answer(obj):
    print(json.dumps(obj), flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:6])
