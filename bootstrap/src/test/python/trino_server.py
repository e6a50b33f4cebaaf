"""Trino as a user runs it: the `trino-server-core` tarball and the `trino-iceberg` plugin from
Maven Central, unpacked once by .ci/run (into FLOE_TRINO_HOME), started with its own launcher on
a JDK new enough for it (FLOE_TRINO_JAVA_HOME), with catalog files the test writes from the docs.
One coordinator that also works, with the least memory its defaults accept; it binds loopback."""

import os
import pathlib
import signal
import socket
import subprocess
import time
import urllib.request

import trino
import trino.exceptions

VERSION = "476"
HOME = pathlib.Path(os.environ.get(
    "FLOE_TRINO_HOME",
    pathlib.Path(os.environ.get("XDG_CACHE_HOME", pathlib.Path.home() / ".cache"))
    / "floe-ci" / f"trino-{VERSION}"))
JAVA_HOME = pathlib.Path(os.environ.get("FLOE_TRINO_JAVA_HOME",
                                        "/usr/lib/jvm/temurin-25-jdk-amd64"))

# Trino checks that a query's memory fits the heap after its headroom (30% of the heap).
JVM_CONFIG = """-server
-Xmx1G
-XX:+UseG1GC
-XX:+ExitOnOutOfMemoryError
-XX:TieredStopAtLevel=1
-Djdk.attach.allowAttachSelf=true
"""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Trino:
    """A running Trino; `query` runs one statement and returns its rows."""

    def __init__(self, workdir: pathlib.Path, catalogs: dict[str, str]):
        assert (HOME / "bin" / "launcher").is_file() and (HOME / "plugin" / "iceberg").is_dir(), (
            f"Trino {VERSION} is not unpacked at {HOME}: .ci/run fetches it (or set "
            "FLOE_TRINO_HOME)")
        assert (JAVA_HOME / "bin" / "java").is_file(), (
            f"no JDK at {JAVA_HOME}: Trino {VERSION} needs Java 24 or newer (set "
            "FLOE_TRINO_JAVA_HOME)")
        self.port = _free_port()
        etc = workdir / "etc"
        (etc / "catalog").mkdir(parents=True)
        data = workdir / "data"
        (etc / "node.properties").write_text(
            f"node.environment=test\nnode.id=floe-test\nnode.data-dir={data}\n")
        (etc / "config.properties").write_text(
            "coordinator=true\nnode-scheduler.include-coordinator=true\n"
            f"http-server.http.port={self.port}\ndiscovery.uri=http://127.0.0.1:{self.port}\n"
            "query.max-memory=256MB\nquery.max-memory-per-node=256MB\n")
        (etc / "jvm.config").write_text(JVM_CONFIG)
        (etc / "log.properties").write_text("io.trino=WARN\n")
        for name, properties in catalogs.items():
            (etc / "catalog" / f"{name}.properties").write_text(properties)
        self.log = workdir / "trino.log"
        environment = dict(os.environ, JAVA_HOME=str(JAVA_HOME),
                           PATH=f"{JAVA_HOME / 'bin'}:{os.environ['PATH']}",
                           # The AWS SDK would otherwise ask EC2's metadata service for a region
                           # and credentials, which only answers on EC2.
                           AWS_EC2_METADATA_DISABLED="true")
        with open(self.log, "w") as out:
            self.process = subprocess.Popen(
                [str(HOME / "bin" / "launcher"), "run", f"--etc-dir={etc}", f"--data-dir={data}"],
                stdout=out, stderr=subprocess.STDOUT, env=environment, start_new_session=True)
        try:
            self._wait_until_ready()
        except BaseException:
            self.stop()
            raise

    def _wait_until_ready(self) -> None:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"Trino exited with {self.process.returncode}:\n"
                                   f"{self.log.read_text()[-5000:]}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/v1/info",
                                            timeout=2) as response:
                    if b'"starting":false' in response.read() and self._runs_queries():
                        return
            except OSError:
                pass
            time.sleep(1)
        raise RuntimeError(f"Trino did not start:\n{self.log.read_text()[-5000:]}")

    def _runs_queries(self) -> bool:
        """Whether a query runs: a coordinator that has finished starting may not yet have
        announced itself as a node to run queries on (NO_NODES_AVAILABLE)."""
        try:
            return self.query("SELECT 1", catalog="system") == [[1]]
        except trino.exceptions.TrinoQueryError as e:
            if e.error_name == "NO_NODES_AVAILABLE":
                return False
            raise

    def query(self, sql: str, catalog: str = "floe") -> list[list]:
        connection = trino.dbapi.connect(host="127.0.0.1", port=self.port, user="floe-test",
                                         catalog=catalog)
        try:
            cursor = connection.cursor()
            cursor.execute(sql)
            return cursor.fetchall()
        finally:
            connection.close()

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()

