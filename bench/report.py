"""Turns one run of bench/run.sh into docs/benchmarks.md and the chart benchmarks.png.

Inputs: a directory of wrk reports named SERVER__MEASUREMENT__rROUND.json (written by
bench/wrk/common.lua, and in the same shape by bench/appends/AppendBench.java) and a facts file
of key<TAB>value lines (the machine, the run, peak RSS, the load average as each round started,
Icechunk medians). Each figure is the server's best round of the measurement (the highest
throughput): other work on the machine only ever slows a server down.

The goals table says, for each goal of the speed work, met or not met; where not met, the reason
is what the run shows (errors, a busy machine) and, if bench/goal-reasons.json names the goal,
the explanation written there after studying the run.

Usage: python report.py --results DIR --facts FILE --output DIR [--reasons FILE]
"""

import argparse
import json
import pathlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend is chosen first)

FLOE, REFERENCE = "floe", "reference"
NESSIE_JDBC, NESSIE_MEMORY = "nessie-jdbc", "nessie-memory"
REPLICAS, EMBEDDED, STATIC = "floe-replicas", "floe-embedded", "static"
PEERS = (NESSIE_JDBC, NESSIE_MEMORY)
MAIN = (FLOE, REFERENCE, NESSIE_JDBC, NESSIE_MEMORY)
LABELS = {
    FLOE: "Floe (external PostgreSQL)",
    REPLICAS: "Floe, one of two replicas",
    EMBEDDED: "Floe (embedded PostgreSQL)",
    REFERENCE: "Iceberg reference server",
    NESSIE_JDBC: "Nessie 0.99, JDBC",
    NESSIE_MEMORY: "Nessie 0.99, in-memory",
    STATIC: "nginx, static file",
}
SHORT = {FLOE: "Floe", REPLICAS: "Floe (1 of 2)", EMBEDDED: "Floe (embedded)",
         REFERENCE: "reference", NESSIE_JDBC: "Nessie JDBC", NESSIE_MEMORY: "Nessie mem",
         STATIC: "nginx"}
COLORS = {FLOE: "#1f77b4", REPLICAS: "#6baed6", EMBEDDED: "#9ecae1", REFERENCE: "#ff7f0e",
          NESSIE_JDBC: "#2ca02c", NESSIE_MEMORY: "#98df8a", STATIC: "#7f7f7f"}
RSS_GOAL_MIB = 512
CHART = "benchmarks.png"

# measurement -> (name, unit, whether time per operation is the figure that counts)
MEASUREMENTS = {
    "load_hot": ("loadTable, one hot table", "req/s", False),
    "load_conditional": ("loadTable with `If-None-Match`", "req/s", False),
    "load_spread": ("loadTable spread over 100 tables at random", "req/s", False),
    "mixed": ("mixed: loads over 50 tables while one client commits to 50 others", "req/s",
              False),
    "mixed_writes": ("mixed: the writer's commits", "ops/s", False),
    "create_sequential": ("createTable, one client", "ms/op", True),
    "commit_sequential": ("commit (`set-properties`), one client", "ms/op", True),
    "commit_concurrent": ("commits by 16 clients on as many tables", "ops/s", False),
    "append_sequential": ("append with a real manifest list (Iceberg's Java client), one "
                          "client", "ms/op", True),
    "append_concurrent": ("appends by 16 clients to one table (Iceberg's Java client)", "ops/s",
                          False),
    "load_big": ("loadTable over 16 tables of thousands of snapshots, 16 connections", "req/s",
                 False),
}


class Run:
    """One round of one measurement of one server: wrk's report and the figures derived from it."""

    def __init__(self, report: dict, round_number: int, load: str):
        self.report = report
        self.round = round_number
        self.load = load
        self.seconds = report["duration_us"] / 1e6
        self.requests = report["requests"]
        self.errors = sum(report["errors"].values())
        self.rate = (self.requests - self.errors) / self.seconds if self.seconds else 0.0
        latency = report["latency_us"]
        self.mean_ms = latency["mean"] / 1000
        self.p50_ms = latency["p50"] / 1000
        self.p99_ms = latency["p99"] / 1000
        self.statuses = report.get("statuses") or {}

    def status_text(self) -> str:
        if not self.statuses:
            return ""
        return ", ".join(f"{n:,} × {status}" for status, n in sorted(self.statuses.items()))


def load_runs(results: pathlib.Path, facts: dict) -> dict:
    """Every round of every measurement: (server, measurement) -> [Run, ...] in round order."""
    runs = {}
    for path in sorted(results.glob("*__*__r*.json")):
        server, measurement, round_name = path.stem.split("__")
        run = Run(json.loads(path.read_text()), int(round_name[1:]),
                  facts.get(f"load_{path.stem}", "–"))
        runs.setdefault((server, measurement), []).append(run)
    for rounds in runs.values():
        rounds.sort(key=lambda r: r.round)
    return runs


def load_facts(path: pathlib.Path) -> dict:
    facts = {}
    for line in path.read_text().splitlines():
        if "\t" in line:
            key, value = line.split("\t", 1)
            facts[key] = value
    return facts


def mib(kib: str | None) -> float | None:
    return int(kib) / 1024 if kib else None


def fmt(value: float | None, digits: int = 1, unit: str = "") -> str:
    if value is None:
        return "–"
    return f"{value:,.{digits}f}{unit}"


def verdict(met: bool | None) -> str:
    return {True: "**met**", False: "not met", None: "not measured"}[met]


class Report:
    def __init__(self, runs: dict, facts: dict, reasons: dict):
        self.runs = runs
        self.facts = facts
        self.reasons = reasons
        self.list_sizes = [int(s) for s in facts.get("list_sizes", "").split()]

    def run(self, server: str, measurement: str) -> Run | None:
        """The server's best round of the measurement: the one with the highest throughput."""
        rounds = self.runs.get((server, measurement))
        return max(rounds, key=lambda r: r.rate) if rounds else None

    def figure(self, server: str, measurement: str) -> float | None:
        """Throughput, or time per operation (mean latency) where that is what counts."""
        run = self.run(server, measurement)
        if not run:
            return None
        return run.mean_ms if MEASUREMENTS.get(measurement, ("", "", False))[2] else run.rate

    def ratio(self, measurement: str, server: str = FLOE, against: str = REFERENCE,
              against_measurement: str | None = None) -> float | None:
        """How many times better `server` did than `against`: above 1 means `server` is ahead."""
        mine = self.figure(server, measurement)
        theirs = self.figure(against, against_measurement or measurement)
        if mine is None or theirs is None or mine == 0 or theirs == 0:
            return None
        per_op = MEASUREMENTS.get(measurement, ("", "", False))[2]
        return theirs / mine if per_op else mine / theirs

    def round_rates(self, server: str, measurement: str) -> str:
        return " / ".join(fmt(r.rate, 0 if r.rate >= 100 else 1)
                          for r in self.runs.get((server, measurement), []))

    def busy(self) -> bool:
        """Whether other work loaded the machine beyond its cores before the servers started."""
        try:
            cores = int(self.facts["cores"])
            load = float(self.facts["load_start"].split()[0])
        except (KeyError, ValueError, IndexError):
            return False
        return load > cores

    def peak_rss_mib(self, server: str) -> float | None:
        return mib(self.facts.get(f"rss_peak_kib_{server}"))

    # --- the goals ---------------------------------------------------------------------------

    def goal(self, key: str, name: str, shown: str, target: str, met: bool | None,
             errors: int = 0) -> tuple:
        reasons = []
        if met is False:
            if errors:
                reasons.append(f"{errors:,} errors")
            if self.busy() or self.facts.get("quick") == "true":
                reasons.append("measured on a busy machine or in a quick run")
            if key in self.reasons:
                reasons.append(self.reasons[key])
        elif met is None and key in self.reasons:
            reasons.append(self.reasons[key])
        return (name, shown, target, verdict(met), "; ".join(reasons))

    def ratio_goal(self, key, name, measurement, target, server=FLOE, against=REFERENCE):
        ratio = self.ratio(measurement, server, against)
        run = self.run(server, measurement)
        errors = run.errors if run else 0
        met = None if ratio is None else ratio >= target and errors == 0
        return self.goal(key, name, fmt(ratio, 2, "×"), f"≥ {target:g}×", met, errors)

    def goals(self) -> list[tuple]:
        rows = []
        # mixed: at least 3x the reference and ahead of every peer measured
        ratio = self.ratio("mixed")
        peers = {p: self.ratio("mixed", FLOE, p) for p in PEERS if self.run(p, "mixed")}
        shown = fmt(ratio, 2, "×") + "".join(f"; ÷ {SHORT[p]} {fmt(r, 2, '×')}"
                                              for p, r in peers.items())
        run = self.run(FLOE, "mixed")
        met = None if ratio is None else (ratio >= 3 and all((r or 0) > 1 for r in peers.values())
                                          and run.errors == 0)
        rows.append(self.goal("mixed", "mixed ÷ reference, and ahead of every peer", shown,
                              "≥ 3×, > 1× each peer", met, run.errors if run else 0))
        rows.append(self.ratio_goal("hot", "hot loadTable ÷ reference", "load_hot", 4))
        rows.append(self.ratio_goal("spread", "loadTable over 100 tables ÷ reference",
                                    "load_spread", 4))
        rows.append(self.ratio_goal("replicas_hot", "one of two replicas: hot ÷ reference",
                                    "load_hot", 3, server=REPLICAS))
        rows.append(self.ratio_goal("replicas_mixed", "one of two replicas: mixed ÷ reference",
                                    "mixed", 3, server=REPLICAS))
        rows.append(self.ratio_goal("big", "big tables: load ÷ reference (no error)", "load_big",
                                    3))
        rss = self.peak_rss_mib(FLOE)
        rows.append(self.goal("rss", "Floe's peak RSS over the run, big tables included "
                                     "(`./floe serve`'s 256 MiB heap)",
                              fmt(rss, 0, " MiB"), f"< {RSS_GOAL_MIB} MiB",
                              None if rss is None else rss < RSS_GOAL_MIB))
        rows.append(self.ratio_goal("append", "sequential append (real manifest list) ÷ "
                                              "reference, time per op", "append_sequential", 3))
        rows.append(self.ratio_goal("create", "sequential create ÷ reference, time per op",
                                    "create_sequential", 3))
        ratio = self.ratio("append_concurrent")
        run = self.run(FLOE, "append_concurrent")
        met = None if ratio is None or not run else ratio >= 3 and run.errors == 0
        rows.append(self.goal("appenders", "16 appenders on one table: every append "
                                           "acknowledged, throughput ÷ reference",
                              fmt(ratio, 2, "×") + (f", {run.errors:,} failed" if run else ""),
                              "≥ 3×, 0 failed", met, run.errors if run else 0))
        floe, static = self.run(FLOE, "load_hot_beside_static"), self.run(STATIC, "load_hot")
        share = floe.rate / static.rate if floe and static and static.rate else None
        rows.append(self.goal("static", "hot loadTable ÷ static-file ceiling (nginx)",
                              fmt(share * 100 if share is not None else None, 0, " %"), "≥ 50 %",
                              None if share is None else share >= 0.5))
        return rows

    # --- markdown -----------------------------------------------------------------------------

    def markdown(self) -> str:
        f = self.facts
        out = []
        w = out.append
        w("# Benchmarks: Floe, Iceberg's reference REST server and Project Nessie")
        w("")
        command = "bash bench/run.sh" + (" --quick" if f.get("quick") == "true" else "")
        w(f"Generated by `{command}` on {f.get('date', '?')} at commit `{f.get('commit', '?')}`. "
          "Do not edit by hand: rerun the script, which rewrites this page and its chart.")
        if f.get("quick") == "true":
            w("")
            w("**This is a quick run** (short durations, one round, no 100k listing): its "
              "numbers are rough. The figures that count come from a full run on a quiet "
              "machine.")
        if self.busy():
            w("")
            w(f"**The machine was busy during this run**: a load average of "
              f"{f.get('load_start', '?').split()[0]} on {f.get('cores', '?')} cores before the "
              "servers started, so other work competed with the servers, PostgreSQL and the "
              "client for the CPU, and it need not slow every server alike (a request that "
              "makes more PostgreSQL round trips waits for a core more often). The figures and "
              "the ratios are disturbed: rerun on a quiet machine to compare.")
        w("")
        w("Every server runs at the same time on one machine, on one PostgreSQL from Debian's "
          "packages (a database each), driven by the same client (`wrk`, or Iceberg's own Java "
          "client for appends) in the same run, taking turns for each measurement. Floe runs "
          "`./floe serve --database-url ...` (the `floe` script, which gives the server's JVM a "
          "256 MiB heap), with local files. The reference is "
          "`org.apache.iceberg.rest.RESTCatalogServer` from `iceberg-open-api` 1.11.0 (test "
          "fixtures) with a `JdbcCatalog`, with local files. Nessie is "
          f"`nessie-quarkus` {f.get('nessie', '?')}, with its JDBC version store (PostgreSQL) "
          "and with its in-memory one, writing its files to moto's S3 on loopback (it serves no "
          "local files). The reference and Nessie run with the JVM's default settings. Every "
          "request carries the same `Authorization: Bearer` header (the reference and Nessie "
          "have authentication off and ignore it). Apache Polaris publishes no runnable server "
          "among the artifacts Maven Central serves, so it is not measured. Ratios compare "
          "servers within this run, never across runs.")
        w("")
        w(f"![Floe, the reference server and Nessie side by side]({CHART})")
        w("")
        w("## Against the goals")
        w("")
        w("Ratios are Floe ÷ the other for throughput and the other ÷ Floe for time per "
          "operation, so above 1× means Floe is ahead.")
        w("")
        w("| goal | this run | target | | reason |")
        w("|---|---:|---|---|---|")
        for row in self.goals():
            w("| " + " | ".join(row) + " |")
        w("")
        w("## Figures")
        w("")
        w(self.summary_table())
        w("")
        w(self.figures_table())
        w("")
        w(self.conditional_notes())
        w("")
        w("### The static-file ceiling")
        w("")
        w(self.static_notes())
        w("")
        w("### Icechunk commits on S3")
        w("")
        w(self.icechunk_notes())
        w("")
        w("### Listing tables")
        w("")
        w(self.listing_table())
        w("")
        w("### Memory")
        w("")
        w("Peak resident set size (`VmHWM` from `/proc/<pid>/status`) of each server's JVM over "
          "the whole run (the big tables' loads included), read after the last measurement; "
          "PostgreSQL runs in processes of its own and is not included.")
        w("")
        w("| server | peak RSS | RSS at the end |")
        w("|---|---:|---:|")
        for server in (FLOE, EMBEDDED, REFERENCE, NESSIE_JDBC, NESSIE_MEMORY):
            peak = self.peak_rss_mib(server)
            if peak is not None:
                now = mib(f.get(f"rss_now_kib_{server}"))
                w(f"| {LABELS[server]} | {fmt(peak, 0, ' MiB')} | {fmt(now, 0, ' MiB')} |")
        w("")
        w(self.method())
        w("")
        w("## Machine")
        w("")
        w("| | |")
        w("|---|---|")
        memory = mib(f.get("memory_kib"))
        for label, value in (
                ("cores", f.get("cores")), ("CPU", f.get("cpu")),
                ("memory", fmt(memory / 1024 if memory else None, 1, " GiB")),
                ("OS", f.get("os")), ("kernel", f.get("kernel")), ("Java", f.get("java")),
                ("Nessie", f.get("nessie")), ("nginx", f.get("nginx")),
                ("PostgreSQL", f.get("postgres")), ("client", f.get("wrk")),
                ("load average (1, 5, 15 min) at start", f.get("load_start")),
                ("load average at end", f.get("load_end")),
                ("date", f.get("date")), ("commit", f.get("commit"))):
            w(f"| {label} | {value or '–'} |")
        w("")
        return "\n".join(out)

    def summary_table(self) -> str:
        """One row per measurement, one column per server, and Floe's ratios."""
        servers = [s for s in (REFERENCE, NESSIE_JDBC, NESSIE_MEMORY, FLOE, REPLICAS)
                   if any(self.run(s, m) for m in MEASUREMENTS)]
        others = [s for s in (REFERENCE, NESSIE_JDBC, NESSIE_MEMORY) if s in servers]
        lines = ["| measurement | " + " | ".join(SHORT[s] for s in servers) + " | "
                 + " | ".join(f"Floe ÷ {SHORT[s]}" for s in others) + " |",
                 "|---|" + "---:|" * (len(servers) + len(others))]
        for measurement, (name, unit, _) in MEASUREMENTS.items():
            if not any(self.run(s, measurement) for s in servers):
                continue
            cells = []
            for server in servers:
                value = self.figure(server, measurement)
                cells.append(fmt(value, 2 if unit == "ms/op" else 0))
            ratios = [fmt(self.ratio(measurement, FLOE, s), 2, "×") for s in others]
            lines.append(f"| {name} ({unit}) | " + " | ".join(cells) + " | "
                         + " | ".join(ratios) + " |")
        lines.append("")
        lines.append("Best round of each server; ms/op is the mean time per operation of one "
                     "client, req/s and ops/s the successful requests per second.")
        return "\n".join(lines)

    def figures_table(self) -> str:
        lines = ["| measurement | server | throughput | mean | p50 | p99 | requests | errors |"
                 " statuses | load | every round |",
                 "|---|---|---:|---:|---:|---:|---:|---:|---|---:|---:|"]
        for measurement, (name, unit, _) in MEASUREMENTS.items():
            rate_unit = "req/s" if unit == "req/s" else "ops/s"
            for server in (FLOE, REPLICAS, EMBEDDED, REFERENCE, NESSIE_JDBC, NESSIE_MEMORY):
                run = self.run(server, measurement)
                if run:
                    lines.append(
                        f"| {name} | {LABELS[server]} | {fmt(run.rate)} {rate_unit} | "
                        f"{fmt(run.mean_ms, 2)} ms | {fmt(run.p50_ms, 2)} ms | "
                        f"{fmt(run.p99_ms, 2)} ms | {run.requests:,} | {run.errors:,} | "
                        f"{run.status_text()} | {run.load} | "
                        f"{self.round_rates(server, measurement)} |")
        lines.append("")
        lines.append("Errors are what wrk counts (connection errors, timeouts and answers with a "
                     "status of 400 or above) and, for appends, `commit()` calls that threw after "
                     "the client's retries. Statuses are counted where the script looks at every "
                     "answer (not on loads, to keep the client cheap). Each row is the server's "
                     "best round (highest throughput); *every round* lists the throughput of all "
                     "rounds, in order. Load is the machine's 1-minute load average as the "
                     "reported round started: on two cores, anything well above 2 means other "
                     "work competed for the CPU.")
        return "\n".join(lines)

    def conditional_notes(self) -> str:
        lines = ["**`If-None-Match`.** The client first loads the table once and sends back the "
                 "`ETag` it got:"]
        for server in MAIN:
            etag = self.facts.get(f"etag_{server}", "none")
            run = self.run(server, "load_conditional")
            answers = run.status_text() if run else "not measured"
            sent = f"sent `{etag}`" if etag != "none" else "sent no `ETag` (any value was sent)"
            lines.append(f"- {LABELS[server]} {sent}; answers: {answers}.")
        return "\n".join(lines)

    def static_notes(self) -> str:
        floe, static = self.run(FLOE, "load_hot_beside_static"), self.run(STATIC, "load_hot")
        if not floe or not static:
            return "Not measured."
        return (f"nginx ({self.facts.get('nginx', '?')}, one worker per core, `sendfile`) served "
                f"the {int(self.facts.get('static_bytes', 0)):,} bytes of Floe's answer to the "
                f"hot load as a static file at {fmt(static.rate)} req/s (p99 "
                f"{fmt(static.p99_ms, 2)} ms); Floe, measured right after it in each round, "
                f"answered {fmt(floe.rate)} req/s (p99 {fmt(floe.p99_ms, 2)} ms): "
                f"{fmt(floe.rate / static.rate * 100 if static.rate else None, 0)} % of the "
                "ceiling.")

    def icechunk_notes(self) -> str:
        chunks = self.facts.get("icechunk_chunks", "?")
        rows = []
        for what in ("write", "commit", "open_and_read"):
            key = f"{what}_{chunks}_chunks"
            floe = self.facts.get(f"icechunk_floe_{key}")
            python = self.facts.get(f"icechunk_python_{key}")
            if floe or python:
                ratio = (float(python) / float(floe)) if floe and python and float(floe) else None
                rows.append(f"| {what.replace('_', ' ')} {chunks} chunks | {floe or '–'} ms | "
                            f"{python or '–'} ms | {fmt(ratio, 2, '×')} |")
        if not rows:
            return "Not measured."
        return "\n".join([
            f"Floe's Icechunk (Java) and Python icechunk, each writing {chunks} chunks of 1 KiB "
            "to a repository on moto's S3 (which enforces `If-Match`/`If-None-Match` as S3 "
            f"does), committing them, then opening and reading them back; median of "
            f"{self.facts.get('icechunk_rounds', '?')} rounds (Floe after untimed warm-up rounds "
            "in the same JVM). Python ÷ Floe above 1× means Floe is quicker.",
            "",
            "| step | Floe | Python icechunk | Python ÷ Floe |",
            "|---|---:|---:|---:|",
            *rows])

    def listing_table(self) -> str:
        lines = [f"A page of {self.facts.get('page_size', '100')} tables from a namespace of N "
                 "tables, one client; p50 latency (mean in brackets). Nessie is not listed: its "
                 "tables live in its version store, which SQL cannot seed with thousands of "
                 "tables.",
                 "",
                 "| tables | server | first page | last page | last ÷ first | load |",
                 "|---:|---|---:|---:|---:|---:|"]
        for size in self.list_sizes:
            for server in (FLOE, REFERENCE):
                first = self.run(server, f"list_{size}_first")
                last = self.run(server, f"list_{size}_last")
                if first and last:
                    lines.append(
                        f"| {size:,} | {LABELS[server]} | {fmt(first.p50_ms, 2)} ms "
                        f"({fmt(first.mean_ms, 2)}) | {fmt(last.p50_ms, 2)} ms "
                        f"({fmt(last.mean_ms, 2)}) | {fmt(last.p50_ms / first.p50_ms, 2, '×')} | "
                        f"{first.load} |")
        return "\n".join(lines)

    def method(self) -> str:
        f = self.facts
        sizes = {s: f.get(f"big_response_bytes_{s}") for s in MAIN}
        sizes = ", ".join(f"{int(n):,} bytes from {SHORT[s]}" for s, n in sizes.items() if n)
        return "\n".join([
            "## How it is measured",
            "",
            f"- Durations: {f.get('durations', '?')}. Every server is warmed up first (hot "
            "loads for the warm-up time, then commits for half of it: long enough for the JIT "
            "to compile the request path), then each measurement runs in "
            f"{f.get('rounds', '1')} round(s), the servers taking turns in each round, so that "
            "other work on the machine falls on all alike. Each figure is the server's best "
            "round (highest throughput), since other work only ever slows a server down.",
            "- Every server gets the same namespaces and tables through its own REST API "
            "(`bench/setup_catalog.py`).",
            f"- **loadTable, hot**: `{f.get('load_setting', '')}` GETs of one table for a fixed "
            "time. **With `If-None-Match`**: the same, sending the table's current `ETag`. "
            "**Spread**: the same setting, each request for one of 100 tables at random.",
            "- **Mixed**: the spread load over 50 tables while one more client (wrk `-t1 -c1`) "
            "commits `set-properties` to 50 other tables in turn, each after the previous "
            "answer; the loads are the figure, the writer's rate is listed too. On *one of two "
            "replicas*, the writer commits through the other replica.",
            "- **createTable**: one connection creating uniquely named two-column tables in one "
            "namespace, each request after the previous answer; the time per operation is the "
            "mean latency.",
            "- **Sequential commit**: one connection sending `set-properties` commits without "
            "requirements to one table. **Concurrent commits**: "
            f"{f.get('committers', '16')} connections, each committing the same way to its own "
            "table.",
            "- **Appends** (`bench/appends/AppendBench.java`): Iceberg 1.11's own Java "
            "`RESTCatalog` appends one data file per commit with `newFastAppend()`, which writes "
            "a real manifest and manifest list through the table's FileIO and commits a new "
            "snapshot with its requirements; a lost race is retried by the client (the tables "
            "allow 1,000 retries, 5–200 ms apart, the same on every server). One client, and "
            f"{f.get('appenders', '16')} clients on one table; an append whose `commit()` "
            "throws is an error.",
            f"- **Big tables**: 16 tables of {f.get('big_snapshots', '?')} snapshots each, made "
            "through each server's API (commits of 500 `add-snapshot` updates with an engine's "
            f"summary), loaded after a warm-up of their own. The answer to one load: "
            f"{sizes or 'not recorded'}. A server whose answer is far smaller than the others' "
            "leaves most of the table's history out of it, and is not doing the same work.",
            "- **Listing**: namespaces of "
            + ", ".join(f"{int(s):,}" for s in self.list_sizes)
            + " tables on Floe and the reference. One table, `t000000`, is created through the "
            "API; the other N−1 rows are cloned from its row in SQL. The last page's token is "
            "found by following the server's own `next-page-token`s.",
            "- **Floe with a second replica.** After the others have stopped, a second Floe "
            "replica starts on the same database (`floe_pointers_served` was "
            f"{f.get('pointers_served_with_second', '?')} on the first with both running: it "
            "keeps serving pointers from memory), and hot, spread and mixed are measured on the "
            "first, the mixed writer committing through the second.",
            "- **Floe on its embedded PostgreSQL** (`floe serve` with no database URL) is "
            "measured on the hot loadTable only, after the other servers have stopped.",
            "- PostgreSQL: a fresh `initdb` cluster with default settings (fsync and "
            "synchronous commit on). The reference's `JdbcCatalog` keeps its default pool; "
            "Floe and Nessie their own defaults.",
            "- The numbers move with whatever else the machine does: compare the load averages "
            "below, and rerun on a quiet machine before drawing conclusions.",
        ])


# --- the chart -------------------------------------------------------------------------------

def bars(axis, groups: list[str], series: list[tuple[str, list]], title: str, ylabel: str,
         log: bool = False):
    series = [(s, v) for s, v in series if any(x is not None for x in v)]
    width = 0.8 / max(len(series), 1)
    for i, (server, values) in enumerate(series):
        xs = [g + (i - (len(series) - 1) / 2) * width for g in range(len(groups))]
        heights = [v if v is not None else 0 for v in values]
        drawn = axis.bar(xs, heights, width, label=LABELS[server], color=COLORS[server])
        axis.bar_label(drawn, labels=[fmt(v, 0 if (v or 0) >= 100 else 1) if v is not None
                                      else "" for v in values], fontsize=6, padding=1,
                       rotation=90 if len(series) > 3 else 0)
    axis.set_xticks(range(len(groups)), groups, fontsize=8)
    axis.set_title(title, fontsize=10)
    axis.set_ylabel(ylabel, fontsize=8)
    axis.tick_params(axis="y", labelsize=8)
    if log:
        axis.set_yscale("log")
    axis.margins(y=0.25)


def chart(report: Report, path: pathlib.Path):
    def value(server, measurement, attribute="rate"):
        run = report.run(server, measurement)
        return getattr(run, attribute) if run else None

    figure, axes = plt.subplots(2, 4, figsize=(21, 9.5))
    (loads, writes, concurrent, big), (ceiling, listing, memory, icechunk) = axes
    everyone = (FLOE, REPLICAS, REFERENCE, NESSIE_JDBC, NESSIE_MEMORY)

    bars(loads, ["hot", "If-None-Match", "spread (100)", "mixed"],
         [(s, [value(s, m) for m in ("load_hot", "load_conditional", "load_spread", "mixed")])
          for s in everyone],
         "loadTable throughput (higher is better)", "requests/s")
    bars(writes, ["createTable", "commit", "append"],
         [(s, [value(s, m, "mean_ms") for m in ("create_sequential", "commit_sequential",
                                                 "append_sequential")]) for s in MAIN],
         "One client, time per operation (lower is better)", "ms per operation")
    bars(concurrent, ["16 committers,\n16 tables", "16 appenders,\none table"],
         [(s, [value(s, "commit_concurrent"), value(s, "append_concurrent")]) for s in MAIN],
         "Concurrent writes (higher is better)", "operations/s")
    bars(big, ["loads/s"], [(s, [value(s, "load_big")]) for s in MAIN],
         f"16 tables of {report.facts.get('big_snapshots', '?')} snapshots, 16 connections",
         "requests/s")
    bars(ceiling, ["hot loadTable"],
         [(STATIC, [value(STATIC, "load_hot")]), (FLOE, [value(FLOE, "load_hot_beside_static")])],
         "Static-file ceiling: the same bytes from nginx", "requests/s")

    for server in (FLOE, REFERENCE):
        for page, style in (("first", "-"), ("last", "--")):
            points = [(size, value(server, f"list_{size}_{page}", "p50_ms"))
                      for size in report.list_sizes]
            points = [(x, y) for x, y in points if y is not None]
            if points:
                listing.plot([x for x, _ in points], [y for _, y in points], style, marker="o",
                             color=COLORS[server], label=f"{SHORT[server]}, {page} page")
    listing.set_xscale("log")
    listing.set_yscale("log")
    listing.set_title("list-tables page latency, p50 (lower is better)", fontsize=10)
    listing.set_xlabel("tables in the namespace", fontsize=8)
    listing.set_ylabel("ms", fontsize=8)
    listing.tick_params(labelsize=8)
    listing.legend(fontsize=7)

    servers = [s for s in (FLOE, EMBEDDED, REFERENCE, NESSIE_JDBC, NESSIE_MEMORY)
               if report.peak_rss_mib(s) is not None]
    heights = [report.peak_rss_mib(s) for s in servers]
    drawn = memory.bar(range(len(servers)), heights, color=[COLORS[s] for s in servers])
    memory.bar_label(drawn, labels=[fmt(h, 0) for h in heights], fontsize=7, padding=1)
    memory.set_xticks(range(len(servers)), [SHORT[s] for s in servers], fontsize=7)
    memory.axhline(RSS_GOAL_MIB, color="grey", linestyle="--", linewidth=0.8)
    memory.set_title(f"Peak RSS of the JVM (goal for Floe: < {RSS_GOAL_MIB} MiB)", fontsize=10)
    memory.set_ylabel("MiB", fontsize=8)
    memory.tick_params(axis="y", labelsize=8)
    memory.margins(y=0.15)

    chunks = report.facts.get("icechunk_chunks", "?")
    steps = ("write", "commit")
    if not any(report.facts.get(f"icechunk_{impl}_{step}_{chunks}_chunks")
               for impl in ("floe", "python") for step in steps):
        icechunk.text(0.5, 0.5, "not measured in this run", ha="center", va="center",
                      transform=icechunk.transAxes, fontsize=9)
    values = {impl: [report.facts.get(f"icechunk_{impl}_{step}_{chunks}_chunks")
                     for step in steps] for impl in ("floe", "python")}
    xs = range(len(steps))
    for i, (impl, color) in enumerate((("floe", COLORS[FLOE]), ("python", "#d62728"))):
        heights = [float(v) if v else 0 for v in values[impl]]
        drawn = icechunk.bar([x + (i - 0.5) * 0.4 for x in xs], heights, 0.4, color=color,
                             label="Floe (Java)" if impl == "floe" else "Python icechunk")
        icechunk.bar_label(drawn, labels=[fmt(h, 1) for h in heights], fontsize=7, padding=1)
    icechunk.set_xticks(list(xs), [f"{s} {chunks} chunks" for s in steps], fontsize=8)
    icechunk.set_title("Icechunk on S3 (moto), median ms (lower is better)", fontsize=10)
    icechunk.set_ylabel("ms", fontsize=8)
    icechunk.legend(fontsize=7)
    icechunk.margins(y=0.15)

    handles, labels = loads.get_legend_handles_labels()
    more_handles, more_labels = ceiling.get_legend_handles_labels()
    for handle, label in zip(more_handles, more_labels):
        if label not in labels:
            handles.append(handle)
            labels.append(label)
    figure.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.955), ncol=6,
                  fontsize=9, frameon=False)
    quick = " (quick run)" if report.facts.get("quick") == "true" else ""
    load = (f"load average {report.facts.get('load_start', '?').split()[0]} at start, "
            f"{report.facts.get('load_end', '?').split()[0]} at end")
    figure.suptitle(f"Floe, Iceberg's reference REST server and Nessie — "
                    f"{report.facts.get('date', '')}, commit {report.facts.get('commit', '')}"
                    f"{quick}; {load} ({report.facts.get('cores', '?')} cores)",
                    fontsize=11, y=0.99)
    figure.tight_layout(rect=(0, 0, 1, 0.92))
    figure.savefig(path, dpi=100)
    plt.close(figure)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--results", type=pathlib.Path, required=True)
    parser.add_argument("--facts", type=pathlib.Path, required=True)
    parser.add_argument("--output", type=pathlib.Path, required=True)
    parser.add_argument("--reasons", type=pathlib.Path,
                        default=pathlib.Path(__file__).with_name("goal-reasons.json"))
    args = parser.parse_args()

    facts = load_facts(args.facts)
    reasons = json.loads(args.reasons.read_text()) if args.reasons.exists() else {}
    report = Report(load_runs(args.results, facts), facts, reasons)
    args.output.mkdir(parents=True, exist_ok=True)
    chart(report, args.output / CHART)
    page = args.output / "benchmarks.md"
    kept = kept_sections(page.read_text()) if page.exists() else ""
    page.write_text(report.markdown().rstrip("\n") + "\n" + kept)


# Sections other benchmarks write into the same page (bench/scan_planning.py): kept as they are.
KEPT_SECTIONS = ("## Scan planning",)


def kept_sections(text: str) -> str:
    kept = []
    for heading in KEPT_SECTIONS:
        start = text.find("\n" + heading + "\n")
        if start < 0:
            continue
        end = text.find("\n## ", start + 1)
        kept.append(text[start:end if end >= 0 else len(text)].rstrip("\n") + "\n")
    return "".join(kept)


if __name__ == "__main__":
    main()
