"""Starts Floe the way a user would -- `java -jar floe.jar serve` on its embedded default -- for
the engine tests, and stops it with SIGTERM afterwards, checking that it exits cleanly. Tests
that need S3 get moto (S3 and STS) on loopback, one server per test module."""

import contextlib
import os
import pathlib
import signal
import socket
import subprocess
import time
import urllib.request

import pytest
from moto.server import ThreadedMotoServer

# The change feed's checks, shared by several test modules, explain their failures as tests do.
pytest.register_assert_rewrite("change_feed")

REPO_ROOT = pathlib.Path(__file__).resolve().parents[4]
JAR = pathlib.Path(os.environ.get("FLOE_JAR", REPO_ROOT / "bootstrap" / "target" / "floe.jar"))


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Floe:
    def __init__(self, port: int, data_dir: pathlib.Path, process: subprocess.Popen):
        self.port = port
        self.data_dir = data_dir
        self.process = process

    @property
    def uri(self) -> str:
        return f"http://127.0.0.1:{self.port}/iceberg"

    @property
    def token(self) -> str:
        return (self.data_dir / "admin.token").read_text().strip()

    warehouse = "my-org"
    killed = False

    def kill(self):
        """Ends the server as a power cut would (SIGKILL): nothing of it runs after, no hook,
        no flush."""
        self.process.kill()
        self.process.wait(timeout=60)
        self.killed = True


def _wait_until_ready(port: int, process: subprocess.Popen, log: pathlib.Path) -> None:
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"Floe exited with {process.returncode}:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/ready", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.5)
    raise RuntimeError(f"Floe did not become ready:\n{log.read_text()}")


@contextlib.contextmanager
def serve(data_dir: pathlib.Path, *options: str):
    """A Floe server on a free port with its data in `data_dir` and `options` added to `serve`'s;
    stopped with SIGTERM at the end, which it must exit cleanly on."""
    assert JAR.is_file(), f"build the server first: {JAR} is missing"
    log = data_dir.parent / f"{data_dir.name}.log"
    port = _free_port()
    with open(log, "w") as out:
        process = subprocess.Popen(
            # As `floe serve` runs it: a heap that runs out ends the process.
            ["java", "-XX:+ExitOnOutOfMemoryError", "-jar", str(JAR), "serve", "--port",
             str(port), "--data-dir", str(data_dir),
             # moto runs on this machine: the operator allows every org's buckets to reach it.
             "--allow-private-bucket-endpoints", "--bucket-endpoint-host", "127.0.0.1",
             # Webhook receivers of the tests run on this machine too.
             "--allow-private-webhook-targets", "--webhook-poll-interval", "PT0.2S",
             *options],
            stdout=out, stderr=subprocess.STDOUT)
    server = Floe(port, data_dir, process)
    try:
        _wait_until_ready(port, process, log)
        yield server
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            code = process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            raise
    assert code in (0, 143) or server.killed and code == -signal.SIGKILL, \
        f"Floe did not stop cleanly ({code}):\n{log.read_text()}"


@pytest.fixture(scope="session")
def floe(tmp_path_factory) -> Floe:
    with serve(tmp_path_factory.mktemp("floe-data")) as server:
        yield server


@pytest.fixture(scope="module")
def moto() -> str:
    """moto's S3 and STS on a free loopback port; the endpoint URL."""
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=_free_port(), verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    yield f"http://{host}:{port}"
    server.stop()
