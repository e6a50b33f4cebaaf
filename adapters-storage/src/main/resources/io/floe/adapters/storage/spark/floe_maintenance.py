"""Floe's table maintenance as a Spark application: the driver Floe runs with spark-submit.

It opens Floe as the Iceberg REST catalog `floe` (the catalog's settings come from spark-submit's
--conf, the job's token from the environment variable FLOE_MAINTENANCE_TOKEN) and runs Iceberg's
own procedures on one table, in this order, each only when the job names it: rewrite_data_files,
expire_snapshots, rewrite_manifests, remove_orphan_files. A dry run changes nothing and reports
what the table holds that a step would work on. The last line it prints is the result, as JSON
after the marker FLOE_MAINTENANCE_RESULT; any failure ends it with a non-zero status.

Argument: the job as JSON: id, namespace, table, dry_run, and optionally compact
{target_file_size_bytes, min_input_files}, expire_snapshots {older_than (UTC), retain_last},
rewrite_manifests (true), remove_orphans {older_than (UTC)}.
"""

import json
import os
import sys

from pyspark.sql import SparkSession

CATALOG = "floe"
RESULT_MARKER = "FLOE_MAINTENANCE_RESULT "


def quoted(name):
    """A name as a Spark identifier part."""
    return "`" + name.replace("`", "``") + "`"


def literal(text):
    """A Spark SQL string literal."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def main():
    job = json.loads(sys.argv[1])
    token = os.environ["FLOE_MAINTENANCE_TOKEN"]
    spark = (SparkSession.builder.appName(f"floe-maintenance-{job['id']}")
             .config(f"spark.sql.catalog.{CATALOG}.token", token)
             .getOrCreate())
    try:
        print(RESULT_MARKER + json.dumps(maintain(spark, job)), flush=True)
    finally:
        spark.stop()


def maintain(spark, job):
    ident = f"{quoted(job['namespace'])}.{quoted(job['table'])}"
    table = f"{CATALOG}.{ident}"
    name = literal(ident)
    dry = bool(job.get("dry_run"))

    def rows(statement):
        return spark.sql(statement).collect()

    def count(metadata, where=""):
        return rows(f"SELECT count(*) FROM {table}.{metadata} {where}")[0][0]

    parts = []
    compact = job.get("compact")
    if compact:
        target = int(compact["target_file_size_bytes"])
        if dry:
            small = count("files", f"WHERE content = 0 AND file_size_in_bytes < {target}")
            parts.append(f"compaction dry-run ({small} files smaller than the target)")
        else:
            options = (f"map('target-file-size-bytes', '{target}', "
                       f"'min-input-files', '{int(compact['min_input_files'])}')")
            result = rows(f"CALL {CATALOG}.system.rewrite_data_files(table => {name}, "
                          f"options => {options})")[0]
            rewritten, added = result[0], result[1]
            outcome = "done" if rewritten else "nothing-to-do"
            parts.append(f"compaction {outcome} ({rewritten} files into {added})")
    expire = job.get("expire_snapshots")
    if expire:
        older_than = f"TIMESTAMP {literal(expire['older_than'])}"
        retain_last = int(expire["retain_last"])
        before = count("snapshots")
        if dry:
            old = count("snapshots", f"WHERE committed_at < {older_than}")
            parts.append(f"expiry dry-run ({old} of {before} snapshots older than "
                         f"{expire['older_than']}, at least {retain_last} kept)")
        else:
            rows(f"CALL {CATALOG}.system.expire_snapshots(table => {name}, "
                 f"older_than => {older_than}, retain_last => {retain_last})")
            after = count("snapshots")
            outcome = "done" if after < before else "nothing-to-do"
            parts.append(f"expiry {outcome} ({before - after} expired, {after} remain)")
    if job.get("rewrite_manifests"):
        before = count("manifests", "WHERE content = 0")
        if dry:
            parts.append(f"manifests dry-run ({before} data manifests)")
        else:
            rows(f"CALL {CATALOG}.system.rewrite_manifests(table => {name})")
            after = count("manifests", "WHERE content = 0")
            parts.append(f"manifests done ({before} to {after})")
    orphans = job.get("remove_orphans")
    if orphans:
        found = rows(f"CALL {CATALOG}.system.remove_orphan_files(table => {name}, "
                     f"older_than => TIMESTAMP {literal(orphans['older_than'])}, "
                     f"dry_run => {'true' if dry else 'false'})")
        parts.append(f"orphans {'dry-run' if dry else 'done'} ({len(found)} "
                     f"{'found' if dry else 'removed'})")
    return {"outcome": "spark: " + "; ".join(parts),
            "snapshots": count("snapshots"),
            "data_manifests": count("manifests", "WHERE content = 0")}


if __name__ == "__main__":
    main()
