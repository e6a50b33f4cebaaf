"""Turns one run of bench/run.sh into docs/benchmarks.md and the chart benchmarks.png.

Inputs: a directory of wrk reports named SERVER__MEASUREMENT__rROUND.json (written by
bench/wrk/common.lua) and a facts file of key<TAB>value lines (the machine, the run, peak RSS, the
load average as each round started). Each figure is the server's best round of the measurement
(the highest throughput): other work on the machine only ever slows a server down.

Usage: python report.py --results DIR --facts FILE --output DIR
"""

import argparse
import json
import pathlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend is chosen first)

FLOE, REFERENCE, EMBEDDED = "floe", "reference", "floe-embedded"
REPLICAS = "floe-replicas"
LABELS = {
    FLOE: "Floe (external PostgreSQL)",
    REPLICAS: "Floe, one of two replicas (external PostgreSQL)",
    EMBEDDED: "Floe (embedded PostgreSQL)",
    REFERENCE: "Iceberg reference server",
}
COLORS = {FLOE: "#1f77b4", REPLICAS: "#6baed6", EMBEDDED: "#9ecae1", REFERENCE: "#ff7f0e"}
RSS_GOAL_MIB = 512
CHART = "benchmarks.png"


class Run:
    """One round of one measurement of one server: wrk's report and the figures derived from it."""

    def __init__(self, report: dict, round_number: int, load: str):
        self.report = report
        self.round = round_number
        self.load = load
        self.seconds = report["duration_us"] / 1e6
        self.requests = report["requests"]
        self.rate = self.requests / self.seconds if self.seconds else 0.0
        latency = report["latency_us"]
        self.mean_ms = latency["mean"] / 1000
        self.p50_ms = latency["p50"] / 1000
        self.p99_ms = latency["p99"] / 1000
        self.errors = sum(report["errors"].values())
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
    def __init__(self, runs: dict, facts: dict):
        self.runs = runs
        self.facts = facts
        self.list_sizes = [int(s) for s in facts.get("list_sizes", "").split()]

    def run(self, server: str, measurement: str) -> Run | None:
        """The server's best round of the measurement: the one with the highest throughput."""
        rounds = self.runs.get((server, measurement))
        return max(rounds, key=lambda r: r.rate) if rounds else None

    def round_rates(self, server: str, measurement: str) -> str:
        return " / ".join(fmt(r.rate, 0 if r.rate >= 100 else 1)
                          for r in self.runs.get((server, measurement), []))

    def ratio(self, measurement: str, attribute: str, inverse: bool = False) -> float | None:
        floe, reference = self.run(FLOE, measurement), self.run(REFERENCE, measurement)
        if not floe or not reference:
            return None
        a, b = getattr(floe, attribute), getattr(reference, attribute)
        if inverse:
            a, b = b, a
        return a / b if b else None

    def busy(self) -> bool:
        """Whether other work loaded the machine beyond its cores before the servers started.

        Only the load at the start tells: by the end, the run's own client, servers and
        PostgreSQL have put the load average above the cores, busy machine or not.
        """
        try:
            cores = int(self.facts["cores"])
            load = float(self.facts["load_start"].split()[0])
        except (KeyError, ValueError, IndexError):
            return False
        return load > cores

    def load_at(self, server: str, measurement: str) -> str:
        run = self.run(server, measurement)
        return run.load if run else "–"

    def peak_rss_mib(self, server: str) -> float | None:
        return mib(self.facts.get(f"rss_peak_kib_{server}"))

    # --- the goals of the speed work, as ratios within this one run ---------------------------

    def goals(self) -> list[tuple[str, str, str, str, str, str]]:
        rows = []
        hot_floe, hot_ref = self.run(FLOE, "load_hot"), self.run(REFERENCE, "load_hot")
        ratio = self.ratio("load_hot", "rate")
        if hot_floe and hot_ref:
            rows.append(("loadTable, hot (req/s)", fmt(hot_floe.rate), fmt(hot_ref.rate),
                         fmt(ratio, 2, "×"), "≥ 3×", verdict(ratio >= 3)))
            rows.append(("loadTable errors", f"{hot_floe.errors:,}", f"{hot_ref.errors:,}", "",
                         "0", verdict(hot_floe.errors == 0)))
            replica = self.run(REPLICAS, "load_hot")
            if replica:
                rows.append(("loadTable, hot, one of two replicas (req/s)", fmt(replica.rate),
                             fmt(hot_ref.rate), fmt(replica.rate / hot_ref.rate, 2, "×"),
                             "", ""))
            rows.append(("loadTable p99 at 16 connections", fmt(hot_floe.p99_ms, 2, " ms"),
                         fmt(hot_ref.p99_ms, 2, " ms"), "", "< 10 ms",
                         verdict(hot_floe.p99_ms < 10)))
        for measurement, name in (("create_sequential", "createTable, sequential (ms/op)"),
                                  ("commit_sequential", "commit, sequential (ms/op)")):
            floe, ref = self.run(FLOE, measurement), self.run(REFERENCE, measurement)
            if floe and ref:
                speedup = self.ratio(measurement, "mean_ms", inverse=True)
                rows.append((name, fmt(floe.mean_ms, 2), fmt(ref.mean_ms, 2),
                             fmt(speedup, 2, "×"), "≥ 3× faster",
                             verdict(speedup is not None and speedup >= 3 and floe.errors == 0)))
        if self.list_sizes:
            size = max(self.list_sizes)
            first, last = self.run(FLOE, f"list_{size}_first"), self.run(FLOE, f"list_{size}_last")
            ref_first = self.run(REFERENCE, f"list_{size}_first")
            ref_last = self.run(REFERENCE, f"list_{size}_last")
            if first and last:
                spread = last.p50_ms / first.p50_ms
                ref_spread = ref_last.p50_ms / ref_first.p50_ms if ref_first and ref_last else None
                met = spread <= 1.5 if size >= 100_000 else None
                rows.append((f"list page at {size:,} tables: last ÷ first page (p50)",
                             fmt(spread, 2, "×"), fmt(ref_spread, 2, "×"), "",
                             "≤ 1.5× at 100k", verdict(met)))
        rss = self.peak_rss_mib(FLOE)
        rows.append(("Floe peak RSS under load", fmt(rss, 0, " MiB"),
                     fmt(self.peak_rss_mib(REFERENCE), 0, " MiB"), "", f"< {RSS_GOAL_MIB} MiB",
                     verdict(rss < RSS_GOAL_MIB if rss is not None else None)))
        return rows

    # --- markdown -----------------------------------------------------------------------------

    def markdown(self) -> str:
        f = self.facts
        out = []
        w = out.append
        w("# Benchmarks: Floe and Iceberg's reference REST server")
        w("")
        command = "bash bench/run.sh" + (" --quick" if f.get("quick") == "true" else "")
        w(f"Generated by `{command}` on {f.get('date', '?')} at commit `{f.get('commit', '?')}`. "
          "Do not edit by hand: rerun the script, which rewrites this page and its chart.")
        if f.get("quick") == "true":
            w("")
            w("**This is a quick run** (short durations, no 100k listing): its numbers are rough.")
        if self.busy():
            w("")
            w(f"**The machine was busy during this run**: a load average of "
              f"{f.get('load_start', '?').split()[0]} on {f.get('cores', '?')} cores before the "
              "servers started, so other work competed with the servers, PostgreSQL and the client for the CPU, "
              "and it need not slow both servers alike (a request that makes more PostgreSQL "
              "round trips waits for a core more often). The figures and the ratios are "
              "disturbed: rerun on a quiet machine to compare.")
        w("")
        w("Both servers run at the same time on one machine, on one PostgreSQL from Debian's "
          "packages (a database each), with local files, and are driven by the same client "
          "(`wrk`) in the same run, taking turns for each measurement. Floe runs "
          "`./floe serve --database-url ...` (the `floe` script, which gives the server's JVM "
          "a 256 MiB heap); the reference is "
          "`org.apache.iceberg.rest.RESTCatalogServer` from `iceberg-open-api` 1.11.0 (test "
          "fixtures) with a `JdbcCatalog`, with the JVM's default settings. Every request "
          "carries the same `Authorization: Bearer` header (the reference has no authentication "
          "and ignores it). Ratios compare the two servers within this run, never across runs.")
        w("")
        w(f"![Floe and the reference server side by side]({CHART})")
        w("")
        w("## Against the goals")
        w("")
        w("Ratios are Floe ÷ reference for throughput and reference ÷ Floe for time per "
          "operation, so above 1× means Floe is ahead.")
        w("")
        w("| measurement | Floe | reference | ratio | goal | |")
        w("|---|---:|---:|---:|---|---|")
        for row in self.goals():
            w("| " + " | ".join(row) + " |")
        w("")
        w("## Figures")
        w("")
        w(self.figures_table())
        w("")
        w(self.conditional_notes())
        w("")
        w("### Listing tables")
        w("")
        w(self.listing_table())
        w("")
        w("### Memory")
        w("")
        w("Peak resident set size (`VmHWM` from `/proc/<pid>/status`) of each server's JVM over "
          "the whole run, read after the last measurement; Floe's embedded PostgreSQL runs in "
          "processes of its own and is not included.")
        w("")
        w("| server | peak RSS | RSS at the end |")
        w("|---|---:|---:|")
        for server in (FLOE, EMBEDDED, REFERENCE):
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
                ("PostgreSQL", f.get("postgres")), ("client", f.get("wrk")),
                ("load average (1, 5, 15 min) at start", f.get("load_start")),
                ("load average at end", f.get("load_end")),
                ("date", f.get("date")), ("commit", f.get("commit"))):
            w(f"| {label} | {value or '–'} |")
        w("")
        return "\n".join(out)

    def figures_table(self) -> str:
        rows = [
            ("load_hot", f"loadTable, hot ({self.facts.get('load_setting', '')})", "req/s"),
            ("load_conditional", "loadTable with `If-None-Match`", "req/s"),
            ("create_sequential", "createTable, one client", "ops/s"),
            ("commit_sequential", "commit (`set-properties`, no requirements), one client",
             "ops/s"),
            ("commit_concurrent",
             f"commits by {self.facts.get('committers', '16')} clients on as many tables",
             "ops/s"),
        ]
        lines = ["| measurement | server | throughput | mean | p50 | p99 | requests | errors |"
                 " statuses | load | every round |",
                 "|---|---|---:|---:|---:|---:|---:|---:|---|---:|---:|"]
        for measurement, name, unit in rows:
            for server in (FLOE, REPLICAS, EMBEDDED, REFERENCE):
                run = self.run(server, measurement)
                if run:
                    lines.append(
                        f"| {name} | {LABELS[server]} | {fmt(run.rate)} {unit} | "
                        f"{fmt(run.mean_ms, 2)} ms | {fmt(run.p50_ms, 2)} ms | "
                        f"{fmt(run.p99_ms, 2)} ms | {run.requests:,} | {run.errors:,} | "
                        f"{run.status_text()} | {run.load} | "
                        f"{self.round_rates(server, measurement)} |")
        lines.append("")
        lines.append("Errors are what wrk counts: connection errors, timeouts and answers with a "
                     "status of 400 or above. Statuses are counted where the script looks at "
                     "every answer (not on the hot loadTable, to keep the client cheap). Each row "
                     "is the server's best round (highest throughput); *every round* lists the "
                     "throughput of all rounds, in order. Load is the machine's 1-minute load "
                     "average as the reported round started: on two cores, anything well above 2 "
                     "means other work competed for the CPU.")
        return "\n".join(lines)

    def conditional_notes(self) -> str:
        lines = ["**`If-None-Match`.** The client first loads the table once and sends back the "
                 "`ETag` it got:"]
        for server in (FLOE, REFERENCE):
            etag = self.facts.get(f"etag_{server}", "none")
            run = self.run(server, "load_conditional")
            answers = run.status_text() if run else "not measured"
            sent = f"sent `{etag}`" if etag != "none" else "sent no `ETag` (any value was sent)"
            lines.append(f"- {LABELS[server]} {sent}; answers: {answers}.")
        return "\n".join(lines)

    def listing_table(self) -> str:
        lines = [f"A page of {self.facts.get('page_size', '100')} tables from a namespace of N "
                 "tables, one client; p50 latency (mean in brackets).",
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
                        f"{self.load_at(server, f'list_{size}_first')} |")
        return "\n".join(lines)

    def method(self) -> str:
        f = self.facts
        return "\n".join([
            "## How it is measured",
            "",
            f"- Durations: {f.get('durations', '?')}. Both servers are warmed up first (hot "
            "loads for the warm-up time, then commits for half of it: long enough for the JIT "
            "to compile the request path, so that what is measured is the steady state), then "
            f"each measurement runs in {f.get('rounds', '1')} "
            "round(s), each round on Floe and right after on the reference, so that other work "
            "on the machine falls on both alike. Each figure is the server's best round "
            "(highest throughput), since other work only ever slows a server down.",
            f"- **loadTable, hot**: `{f.get('load_setting', '')}` GETs of one table for a fixed "
            "time. **With `If-None-Match`**: the same, sending the table's current `ETag`.",
            "- **createTable**: one connection creating uniquely named two-column tables in one "
            "namespace, each request after the previous answer (wrk `-t1 -c1`); the time per "
            "operation is wrk's mean latency.",
            "- **Sequential commit**: one connection sending `set-properties` commits without "
            "requirements to one table, a new value each time (so every commit writes new "
            "metadata). **Concurrent commits**: "
            f"{f.get('committers', '16')} connections, each committing the same way to its own "
            "table (wrk with one thread per connection).",
            "- **Listing**: namespaces of "
            + ", ".join(f"{int(s):,}" for s in self.list_sizes)
            + " tables. One table, `t000000`, is created through each server's API; the other "
            "N−1 rows are cloned from its row in SQL (`t000001`, ... pointing at `t000000`'s "
            "real metadata file; Floe's clones get storage prefix claims like real tables). The "
            "last page's token is found by following the server's own `next-page-token`s, "
            "and the last page is checked to hold a full page and no next token. Each page is "
            "then fetched repeatedly by one connection.",
            "- **Floe alone and with a second replica.** Alone on its database, Floe keeps "
            "tables' metadata pointers in memory and answers a load without asking PostgreSQL; "
            "that is how every figure above is measured. Once the reference has stopped, a "
            "second Floe replica starts on the same database, the first stops keeping pointers "
            "(`floe_replica_sole` was "
            f"{f.get('sole_with_second', '?')} with both running) and reads the pointer of "
            "every load from PostgreSQL, and the hot loadTable is measured on it again "
            "(after a third of the warm-up time of loads): the *one of two replicas* row.",
            "- **Floe on its embedded PostgreSQL** (`floe serve` with no database URL) is "
            "measured on the hot loadTable only, after the other servers have stopped.",
            "- PostgreSQL: a fresh `initdb` cluster with default settings (fsync and "
            "synchronous commit on). The reference's `JdbcCatalog` keeps its default pool of "
            "2 connections; Floe its own defaults.",
            "- The numbers move with whatever else the machine does: compare the load averages "
            "below, and rerun on a quiet machine before drawing conclusions.",
        ])


# --- the chart -------------------------------------------------------------------------------

def bars(axis, groups: list[str], series: list[tuple[str, list]], title: str, ylabel: str):
    width = 0.8 / max(len(series), 1)
    for i, (server, values) in enumerate(series):
        xs = [g + (i - (len(series) - 1) / 2) * width for g in range(len(groups))]
        heights = [v if v is not None else 0 for v in values]
        drawn = axis.bar(xs, heights, width, label=LABELS[server], color=COLORS[server])
        axis.bar_label(drawn, labels=[fmt(v, 0 if (v or 0) >= 100 else 1) if v is not None
                                      else "" for v in values], fontsize=7, padding=1)
    axis.set_xticks(range(len(groups)), groups, fontsize=8)
    axis.set_title(title, fontsize=10)
    axis.set_ylabel(ylabel, fontsize=8)
    axis.tick_params(axis="y", labelsize=8)
    axis.margins(y=0.15)


def chart(report: Report, path: pathlib.Path):
    def value(server, measurement, attribute):
        run = report.run(server, measurement)
        return getattr(run, attribute) if run else None

    figure, axes = plt.subplots(2, 3, figsize=(15, 8.5))
    (load, latency, ops), (concurrent, listing, memory) = axes

    bars(load, ["hot", "If-None-Match"],
         [(s, [value(s, "load_hot", "rate"), value(s, "load_conditional", "rate")])
          for s in (FLOE, REPLICAS, EMBEDDED, REFERENCE)],
         "loadTable throughput (higher is better)", "requests/s")
    bars(latency, ["p50", "p99"],
         [(s, [value(s, "load_hot", "p50_ms"), value(s, "load_hot", "p99_ms")])
          for s in (FLOE, REPLICAS, EMBEDDED, REFERENCE)],
         "loadTable latency, hot (lower is better)", "ms")
    latency.axhline(10, color="grey", linestyle="--", linewidth=0.8)
    bars(ops, ["createTable", "commit"],
         [(s, [value(s, "create_sequential", "mean_ms"), value(s, "commit_sequential", "mean_ms")])
          for s in (FLOE, REFERENCE)],
         "Sequential writes, time per operation (lower is better)", "ms per operation")
    errors = ", ".join(f"{LABELS[s].split(' (')[0]} {value(s, 'commit_concurrent', 'errors')}"
                       for s in (FLOE, REFERENCE) if report.run(s, "commit_concurrent"))
    bars(concurrent, [f"errors: {errors}"],
         [(s, [value(s, "commit_concurrent", "rate")]) for s in (FLOE, REFERENCE)],
         f"{report.facts.get('committers', '16')} concurrent committers, one table each "
         "(higher is better)", "commits/s")

    for server in (FLOE, REFERENCE):
        for page, style in (("first", "-"), ("last", "--")):
            points = [(size, value(server, f"list_{size}_{page}", "p50_ms"))
                      for size in report.list_sizes]
            points = [(x, y) for x, y in points if y is not None]
            if points:
                listing.plot([x for x, _ in points], [y for _, y in points], style, marker="o",
                             color=COLORS[server], label=f"{LABELS[server]}, {page} page")
    listing.set_xscale("log")
    listing.set_yscale("log")
    listing.set_title("list-tables page latency, p50 (lower is better)", fontsize=10)
    listing.set_xlabel("tables in the namespace", fontsize=8)
    listing.set_ylabel("ms", fontsize=8)
    listing.tick_params(labelsize=8)
    listing.legend(fontsize=7)

    servers = [s for s in (FLOE, EMBEDDED, REFERENCE) if report.peak_rss_mib(s) is not None]
    heights = [report.peak_rss_mib(s) for s in servers]
    drawn = memory.bar(range(len(servers)), heights, color=[COLORS[s] for s in servers])
    memory.bar_label(drawn, labels=[fmt(h, 0) for h in heights], fontsize=7, padding=1)
    memory.set_xticks(range(len(servers)), [LABELS[s].replace(" (", "\n(") for s in servers],
                      fontsize=7)
    memory.axhline(RSS_GOAL_MIB, color="grey", linestyle="--", linewidth=0.8)
    memory.set_title(f"Peak RSS of the JVM (goal for Floe: < {RSS_GOAL_MIB} MiB)", fontsize=10)
    memory.set_ylabel("MiB", fontsize=8)
    memory.tick_params(axis="y", labelsize=8)
    memory.margins(y=0.15)

    handles, labels = load.get_legend_handles_labels()
    figure.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.955), ncol=3,
                  fontsize=9, frameon=False)
    quick = " (quick run)" if report.facts.get("quick") == "true" else ""
    load = (f"load average {report.facts.get('load_start', '?').split()[0]} at start, "
            f"{report.facts.get('load_end', '?').split()[0]} at end")
    figure.suptitle(f"Floe vs Iceberg's reference REST server — {report.facts.get('date', '')}, "
                    f"commit {report.facts.get('commit', '')}{quick}; {load} "
                    f"({report.facts.get('cores', '?')} cores)", fontsize=11, y=0.99)
    figure.tight_layout(rect=(0, 0, 1, 0.92))
    figure.savefig(path, dpi=110)
    plt.close(figure)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--results", type=pathlib.Path, required=True)
    parser.add_argument("--facts", type=pathlib.Path, required=True)
    parser.add_argument("--output", type=pathlib.Path, required=True)
    args = parser.parse_args()

    facts = load_facts(args.facts)
    report = Report(load_runs(args.results, facts), facts)
    args.output.mkdir(parents=True, exist_ok=True)
    chart(report, args.output / CHART)
    (args.output / "benchmarks.md").write_text(report.markdown())


if __name__ == "__main__":
    main()
