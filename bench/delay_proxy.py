"""An HTTP/1.1 proxy on loopback in front of an S3 stand-in (moto) that waits a fixed delay before
forwarding each request, as a remote object store's round trip would, and counts requests and
bytes per client: Floe's own (connections from the process whose id it is told) and everyone
else's. Told apart by process, not User-Agent: Floe and Iceberg's Java client both read through
the AWS SDK for Java. It runs in a process of its own so that its threads take no interpreter
time from the client measured.

    python bench/delay_proxy.py UPSTREAM_PORT --port-file FILE

Control requests, answered by the proxy itself: GET /__bench/stats (the counts as JSON),
POST /__bench/reset (zero them), POST /__bench/delay/<ms> (set the delay; 0 while tables are
built), POST /__bench/floe/<pid> (Floe's process id).
"""

import argparse
import json
import os
import pathlib
import socket
import threading
import time

lock = threading.Lock()
state = {"delay": 0.0, "floe": None}
counts = {}


def reset():
    with lock:
        counts.clear()
        for who in ("floe", "client"):
            counts[who] = {"requests": 0, "gets": 0, "heads": 0, "puts": 0,
                           "bytes_in": 0, "bytes_out": 0}


def record(who, method, sent, received):
    with lock:
        c = counts[who]
        c["requests"] += 1
        key = {"GET": "gets", "HEAD": "heads", "PUT": "puts"}.get(method)
        if key:
            c[key] += 1
        c["bytes_out"] += sent        # what the client sent to the store
        c["bytes_in"] += received     # what the store answered


def answer(client, status, body):
    client.sendall(f"HTTP/1.1 {status}\r\nContent-Type: application/json\r\n"
                   f"Content-Length: {len(body)}\r\n\r\n".encode() + body)


def control(client, method, path):
    if path == "/__bench/stats":
        with lock:
            body = json.dumps({"delay_ms": state["delay"] * 1000, **counts}).encode()
        answer(client, "200 OK", body)
    elif path == "/__bench/reset" and method == "POST":
        reset()
        answer(client, "200 OK", b"{}")
    elif path.startswith("/__bench/floe/") and method == "POST":
        state["floe"] = int(path.rsplit("/", 1)[1])
        answer(client, "200 OK", b"{}")
    elif path.startswith("/__bench/delay/") and method == "POST":
        state["delay"] = float(path.rsplit("/", 1)[1]) / 1000
        answer(client, "200 OK", b"{}")
    else:
        answer(client, "404 Not Found", b"{}")


def read_request(reader):
    head = b""
    while not head.endswith(b"\r\n\r\n"):
        line = reader.readline()
        if not line:
            return None
        head += line
    lines = head.decode("latin-1").split("\r\n")
    request_line, headers = lines[0], [h for h in lines[1:] if h]
    names = {h.split(":", 1)[0].strip().lower(): h.split(":", 1)[1].strip() for h in headers}
    body = b""
    if names.get("transfer-encoding", "").lower() == "chunked":
        while True:
            size_line = reader.readline()
            body += size_line
            size = int(size_line.split(b";")[0].strip() or b"0", 16)
            if size == 0:
                while True:
                    trailer = reader.readline()
                    body += trailer
                    if trailer in (b"\r\n", b""):
                        break
                break
            body += reader.read(size + 2)
    else:
        body = reader.read(int(names.get("content-length", "0")))
    return request_line, headers, names, body


def owner(peer_port):
    """"floe" when the loopback connection from `peer_port` is a socket of Floe's process."""
    if state["floe"] is None:
        return "client"
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as lines:
            next(lines)
            for line in lines:
                fields = line.split()
                if int(fields[1].rsplit(":", 1)[1], 16) == peer_port:
                    inodes.add(f"socket:[{fields[9]}]")
    fds = pathlib.Path(f"/proc/{state['floe']}/fd")
    for fd in fds.iterdir():
        try:
            if os.readlink(fd) in inodes:
                return "floe"
        except OSError:
            pass   # closed meanwhile
    return "client"


def exchange(client, upstream_port):
    who = None
    with client:
        reader = client.makefile("rb")
        while True:
            request = read_request(reader)
            if request is None:
                return
            request_line, headers, names, body = request
            method, path = request_line.split(" ")[:2]
            if path.startswith("/__bench/"):
                control(client, method, path)
                continue
            if names.get("expect", "").lower() == "100-continue":
                client.sendall(b"HTTP/1.1 100 Continue\r\n\r\n")
            forwarded = [h for h in headers if h.split(":", 1)[0].strip().lower()
                         not in ("connection", "expect")]
            out = (request_line + "\r\n" + "".join(h + "\r\n" for h in forwarded)
                   + "Connection: close\r\n\r\n").encode("latin-1") + body
            if state["delay"]:
                time.sleep(state["delay"])
            with socket.create_connection(("127.0.0.1", upstream_port)) as upstream:
                upstream.sendall(out)
                chunks = []
                while True:
                    chunk = upstream.recv(262144)
                    if not chunk:
                        break
                    chunks.append(chunk)
            reply = b"".join(chunks)
            if who is None:   # once a connection: it stays one process's
                who = owner(client.getpeername()[1])
            record(who, method, len(out), len(reply))
            client.sendall(reply)
            if b"\r\nconnection: close" in reply.split(b"\r\n\r\n", 1)[0].lower():
                return


def serve(client, upstream_port):
    try:
        exchange(client, upstream_port)
    except OSError:
        pass  # the client went away


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("upstream_port", type=int)
    parser.add_argument("--port-file", required=True)
    args = parser.parse_args()
    reset()
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", 0))
    server.listen(256)
    pathlib.Path(args.port_file).write_text(str(server.getsockname()[1]))
    while True:
        client, _ = server.accept()
        threading.Thread(target=serve, args=(client, args.upstream_port), daemon=True).start()


if __name__ == "__main__":
    main()
