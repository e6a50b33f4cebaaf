"""Runs a Python server module's main() for a test and ends it when the test JVM goes away.

Usage: serve_until_parent_exits.py MAX_SECONDS MODULE [ARGS...]

The JVM holds this process's stdin open; when the JVM exits, even killed, stdin closes and
this process exits with it. MAX_SECONDS bounds its life in any case, so no server outlives
a test run.
"""
import os
import runpy
import sys
import threading


def exit_when(event_source):
    event_source()
    os._exit(0)


def main():
    max_seconds = float(sys.argv[1])
    module = sys.argv[2]
    threading.Thread(target=exit_when, args=(sys.stdin.read,), daemon=True).start()
    deadline = threading.Timer(max_seconds, lambda: os._exit(0))
    deadline.daemon = True
    deadline.start()
    sys.argv = [module] + sys.argv[3:]
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
