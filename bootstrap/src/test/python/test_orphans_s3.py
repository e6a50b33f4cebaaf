"""Orphan removal on an S3 bucket (moto): only the unreferenced files under the table's own
prefix go; files planted beside the table, in a table whose name starts the same way and
elsewhere in the bucket survive, and so does every file the table's metadata references."""

import datetime

import boto3
import pyarrow as pa
import pytest
from moto.s3.models import s3_backends
from pyiceberg.catalog.rest import RestCatalog

from test_command_line import floe_cli
from test_storage_delegation import ROLE, SERVER_KEY, SERVER_SECRET, add_bucket

BUCKET = "lake-orphans"


@pytest.fixture(scope="module")
def s3(moto):
    return boto3.client("s3", endpoint_url=moto, region_name="us-east-1",
                        aws_access_key_id=SERVER_KEY, aws_secret_access_key=SERVER_SECRET)


def age(bucket: str, by: datetime.timedelta) -> None:
    """Makes every object in the bucket older by `by`, as moto (in this process) lists it: orphan
    removal never takes a file younger than its floor of a day."""
    for account in list(s3_backends.keys()):
        buckets = s3_backends[account]["global"].buckets
        if bucket in buckets:
            for key in buckets[bucket].keys.values():
                key.last_modified = key.last_modified - by


def keys(s3) -> set[str]:
    return {item["Key"] for page in s3.get_paginator("list_objects_v2").paginate(Bucket=BUCKET)
            for item in page.get("Contents", [])}


def test_orphan_removal_on_s3_deletes_only_unreferenced_files_under_the_table(floe, s3, moto):
    add_bucket(floe, s3, moto, BUCKET, role_arn=ROLE)
    engine = RestCatalog("floe", uri=floe.uri, warehouse=floe.warehouse, token=floe.token)
    engine.create_namespace("tidy_s3", {"floe.bucket": BUCKET})
    schema = pa.schema([pa.field("id", pa.int64(), nullable=False)])
    table = engine.create_table("tidy_s3.events", schema=schema)
    for i in range(5):
        table.append(pa.table({"id": [i]}, schema=schema))
    table = engine.load_table("tidy_s3.events")
    before = sorted(table.scan().to_arrow().column("id").to_pylist())
    prefix = table.metadata.location.removeprefix(f"s3://{BUCKET}/")
    referenced = {key for key in keys(s3) if key.startswith(prefix + "/")}
    assert any("/data/" in key for key in referenced), referenced

    inside = [f"{prefix}/data/left-behind.parquet", f"{prefix}/metadata/stale.avro"]
    outside = [f"{prefix}-sibling/data/x.parquet",
               prefix.rsplit("/", 1)[0] + "/not-this-table/old.parquet",
               "elsewhere/old.parquet"]
    for key in inside + outside:
        s3.put_object(Bucket=BUCKET, Key=key, Body=b"not referenced")

    under = floe_cli("tables", "maintain", "tidy_s3.events", "--remove-orphans-older-than", "0s",
                     floe=floe)
    assert under.returncode != 0 and "floor of 86400 seconds" in under.stderr + under.stdout
    young = floe_cli("tables", "maintain", "tidy_s3.events", "--remove-orphans-older-than", "1d",
                     floe=floe)
    assert young.returncode == 0, young.stderr
    assert keys(s3) >= set(inside + outside), "files younger than the floor are never orphans"

    age(BUCKET, datetime.timedelta(days=3))
    dry = floe_cli("tables", "maintain", "tidy_s3.events", "--remove-orphans-older-than", "1d",
                   "--dry-run", floe=floe)
    assert dry.returncode == 0, dry.stderr
    assert keys(s3) >= set(inside + outside), "a dry run deletes nothing"

    done = floe_cli("tables", "maintain", "tidy_s3.events", "--remove-orphans-older-than", "1d",
                    floe=floe)
    assert done.returncode == 0, done.stderr
    left = keys(s3)
    assert not set(inside) & left, left
    assert set(outside) <= left, left
    assert referenced <= left, "every file the metadata references is kept"
    table = engine.load_table("tidy_s3.events")
    assert sorted(table.scan().to_arrow().column("id").to_pylist()) == before
