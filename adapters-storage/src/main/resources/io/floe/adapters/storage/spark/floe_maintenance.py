"""Floe's table maintenance as a Spark application: the driver Floe runs with spark-submit.

It opens Floe as the Iceberg REST catalog `floe` (the catalog's settings come from spark-submit's
--conf, the job's token from the environment variable FLOE_MAINTENANCE_TOKEN) and runs Iceberg's
own procedures on one table, in this order, each only when the job names it: rewrite_data_files,
expire_snapshots, rewrite_manifests, remove_orphan_files. A dry run changes nothing and reports
what the table holds that a step would work on. The last line it prints is the result, as JSON
after the marker FLOE_MAINTENANCE_RESULT; any failure ends it with a non-zero status.

The job stays inside the table's boundary. Its FileIO (Floe's TableBoundFileIO, set by the
server) reaches storage only with the credentials the catalog vends for this table. Before any
procedure runs, the driver checks that every file the table's metadata names (data and delete
files, manifests and manifest lists of every snapshot, metadata files) lies beneath the table's
location; if one does not, it prints the reason after the marker FLOE_MAINTENANCE_REFUSED and ends
without running anything, since Iceberg's procedures would only log a file they fail to delete.

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
REFUSED_MARKER = "FLOE_MAINTENANCE_REFUSED "
# What the job's FileIO says when it refuses a path (TableBoundFileIO).
FILE_IO_REFUSAL = "Floe's maintenance job refused the path"
# How many foreign paths a refusal names.
NAMED = 3


class Refused(Exception):
    """The table names files outside its location: the job runs nothing."""


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
        try:
            print(RESULT_MARKER + json.dumps(maintain(spark, job)), flush=True)
        except Refused as refused:
            print(REFUSED_MARKER + str(refused), flush=True)
            sys.exit(3)
        except Exception as error:  # a refusal of the FileIO arrives wrapped in Spark's errors
            text = str(error)
            at = text.find(FILE_IO_REFUSAL)
            if at < 0:
                raise
            print(REFUSED_MARKER + text[at:].splitlines()[0], flush=True)
            sys.exit(3)
    finally:
        spark.stop()


def normalized(location):
    """A location with its file: spellings (file:/, file:///, file://localhost/) made one."""
    if location.startswith("file:"):
        rest = location[len("file:"):]
        if rest.startswith("//localhost/"):
            rest = rest[len("//localhost"):]
        elif rest.startswith("//") and not rest.startswith("///"):
            return location  # another host's file is beneath no table of this server
        return "file://" + "/" + rest.lstrip("/")
    return location


def beneath(path, root):
    """Whether path lies beneath root (a location ending in '/'), with no '.' or '..' step."""
    path = normalized(path)
    if not path.startswith(root) or "\\" in path:
        return False
    return all(part not in (".", "..") for part in path[len(root):].split("/"))


def preflight(spark, table):
    """Refuses the job when the table's metadata names a file outside the table's location."""
    described = spark.sql(f"DESCRIBE TABLE EXTENDED {table}").collect()
    location = next((row[1] for row in described if row[0] == "Location"), None)
    if not location:
        raise Refused("the table's location could not be read")
    root = normalized(location).rstrip("/") + "/"
    sources = (("data or delete file", f"SELECT DISTINCT file_path FROM {table}.all_files"),
               ("manifest", f"SELECT DISTINCT path FROM {table}.all_manifests"),
               ("manifest list", f"SELECT manifest_list FROM {table}.snapshots"),
               ("metadata file", f"SELECT file FROM {table}.metadata_log_entries"))
    foreign = []
    for kind, statement in sources:
        for row in spark.sql(statement).collect():
            if row[0] is not None and not beneath(row[0], root):
                foreign.append(f"{kind} {row[0]}")
    if foreign:
        raise Refused(f"{len(foreign)} file(s) named by the table's metadata lie outside its "
                      f"location {location}, so nothing was run and nothing read or deleted "
                      f"there: {'; '.join(foreign[:NAMED])}"
                      f"{' ...' if len(foreign) > NAMED else ''}")


def maintain(spark, job):
    ident = f"{quoted(job['namespace'])}.{quoted(job['table'])}"
    table = f"{CATALOG}.{ident}"
    name = literal(ident)
    dry = bool(job.get("dry_run"))

    def rows(statement):
        return spark.sql(statement).collect()

    def count(metadata, where=""):
        return rows(f"SELECT count(*) FROM {table}.{metadata} {where}")[0][0]

    preflight(spark, table)

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
                     f"dry_run => {'true' if dry else 'false'}, prefix_listing => true)")
        parts.append(f"orphans {'dry-run' if dry else 'done'} ({len(found)} "
                     f"{'found' if dry else 'removed'})")
    return {"outcome": "spark: " + "; ".join(parts),
            "snapshots": count("snapshots"),
            "data_manifests": count("manifests", "WHERE content = 0")}


if __name__ == "__main__":
    main()
