"""PyFlink 2.1 with Iceberg's Flink runtime against a real Floe, configured by the Flink section
of docs/engines.md: its Python blocks run as written (with the server's address and token, and
the jars where this machine keeps them) in PyFlink's own virtualenv, once for the module, writing
a table on the default bucket and one on S3 (moto) where Flink holds no key and works with the
credentials Floe vends alone. PyIceberg reads the rows back."""

import os
import pathlib
import re
import subprocess

import pytest

import readme
import s3_vending

ROOT = pathlib.Path(__file__).resolve().parents[4]
FLINK_PYTHON = pathlib.Path(os.environ.get("FLOE_FLINK_PYTHON",
                                           ROOT / ".venv-flink" / "bin" / "python"))
REQUIREMENTS = ROOT / ".ci" / "flink-requirements.txt"
DOCS_JARS = "/opt/flink-jars"
JARS = ["org.apache.iceberg:iceberg-flink-runtime-2.1:1.11.0",
        "org.apache.iceberg:iceberg-aws-bundle:1.11.0",
        "org.apache.hadoop:hadoop-client-api:3.4.2",
        "org.apache.hadoop:hadoop-client-runtime:3.4.2"]
S3_BUCKET = "lake-flink"
S3_DATABASE = "sensors_s3"
ROWS = [("KPDX", 13.1), ("KSEA", 11.5)]


def jar_directory(into: pathlib.Path) -> pathlib.Path:
    """The docs' /opt/flink-jars: links to the jars in the local Maven repository."""
    into.mkdir()
    for coordinate in JARS:
        jar = readme.local_maven_jar(coordinate)
        assert jar.is_file(), f"{jar} is missing: .ci/run fetches {coordinate}"
        (into / jar.name).symlink_to(jar)
    return into


def hadoop_classpath(setup: str, jars: pathlib.Path) -> str:
    """HADOOP_CLASSPATH as the docs' shell block exports it."""
    exported = re.search(r"^export HADOOP_CLASSPATH=(\S+)$", setup, re.MULTILINE)
    assert exported, "the docs no longer export HADOOP_CLASSPATH"
    return exported.group(1).replace(DOCS_JARS, str(jars))


@pytest.fixture(scope="module")
def vending(moto):
    with s3_vending.vending_identity(moto, "floe-flink-tables") as identity:
        yield identity


@pytest.fixture(scope="module")
def catalog(floe):
    return readme.pyiceberg_catalog(floe)


@pytest.fixture(scope="module")
def flink_output(floe, moto, vending, catalog, tmp_path_factory):
    """Runs the docs' Flink blocks once on the default bucket and once more, writing a database
    PyIceberg placed on an S3 bucket with a role (Flink's CREATE DATABASE IF NOT EXISTS finds it
    there); returns what the job printed."""
    setup, connect, write = readme.blocks("Flink")
    pinned = re.search(r"pip install (apache-flink==\S+)", setup).group(1)
    assert pinned in REQUIREMENTS.read_text().split(), \
        f"the docs install {pinned}; {REQUIREMENTS.name} must pin the same"
    assert FLINK_PYTHON.is_file(), f"PyFlink's virtualenv is missing ({FLINK_PYTHON}): .ci/run " \
        "builds it from .ci/flink-requirements.txt"
    work = tmp_path_factory.mktemp("flink")
    jars = jar_directory(work / "jars")

    s3_vending.add_bucket(floe, moto, vending, S3_BUCKET)
    catalog.create_namespace(S3_DATABASE, {"floe.bucket": S3_BUCKET})
    job = "\n".join([
        readme.for_server(connect, floe).replace(DOCS_JARS, str(jars)),
        readme.for_server(write, floe),
        readme.for_server(write, floe).replace("floe.sensors", f"floe.{S3_DATABASE}"),
    ])
    (work / "job.py").write_text(job)
    environment = dict(os.environ, HADOOP_CLASSPATH=hadoop_classpath(setup, jars))
    done = subprocess.run([str(FLINK_PYTHON), str(work / "job.py")], cwd=work, env=environment,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, f"{done.stdout[-3000:]}\n{done.stderr[-6000:]}"
    return done.stdout


def rows(table) -> list[tuple]:
    return sorted(tuple(row.values()) for row in table.scan().to_arrow().to_pylist())


def test_flink_writes_on_the_default_bucket(flink_output, catalog, floe):
    assert flink_output.count(str(ROWS)) == 2, flink_output
    table = catalog.load_table("sensors.readings")
    assert rows(table) == ROWS
    assert table.location().startswith((floe.data_dir / "buckets" / "default").as_uri() + "/")
    assert [snapshot.summary.operation.value for snapshot in table.snapshots()] == ["append"]


def test_flink_writes_on_s3_with_vended_credentials_only(flink_output, catalog, moto, vending):
    """moto checks every signature: the catalog Flink was given holds no key."""
    table = catalog.load_table(f"{S3_DATABASE}.readings")
    assert rows(table) == ROWS
    assert table.location().startswith(f"s3://{S3_BUCKET}/")
    table_key = table.location().removeprefix(f"s3://{S3_BUCKET}/")
    stored = s3_vending.keys(moto, vending, S3_BUCKET)
    assert any(key.startswith(table_key + "/data/") for key in stored), stored
