"""The public arraylake client (1.7.0), unchanged, against Floe started from its jar: its org,
bucket and repo methods and the `al` commands that use them. Namespaces and tables are covered
by ArraylakeClientTest. Repos on the default (local) bucket and on an S3-compatible bucket (moto)
are created, written and read by the client itself with credentials Floe vends for the repo's
prefix: on the local bucket through Floe's own S3 endpoint, which reaches nothing else. What Floe does not have
(Arraylake's hosted services) answers with a readable error. The tests work in an org of their
own, which the server's operator (the admin of its first org) creates."""

import asyncio
import json
import os
import pathlib
import subprocess
import sys
import urllib.error
import urllib.request

import boto3
import botocore.exceptions
import icechunk
import numpy as np
import pytest
import zarr
from arraylake import Client
from arraylake.exceptions import ArraylakeClientError, ArraylakeValidationError, AuthException
from arraylake.metastore.http_metastore import HttpMetastore, HttpMetastoreConfig
from arraylake.types import BucketModifyRequest, OrgActions, RepoOperationMode

import readme

ORG = "arraylake-org"
ROLE = "arn:aws:iam::123456789012:role/floe-repos"
KEY, SECRET = "floe-server-key", "floe-server-secret"
AL = pathlib.Path(sys.executable).parent / "al"


def service(floe) -> str:
    return f"http://127.0.0.1:{floe.port}"


def call(floe, token, method, path, body=None):
    """One request to Floe's management API as Floe's own clients send it."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(service(floe) + path, data=data, method=method)
    request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request) as response:
            text = response.read()
            return response.status, json.loads(text) if text else None
    except urllib.error.HTTPError as error:
        text = error.read()
        return error.code, json.loads(text) if text else None


class Org:
    """This module's org on the running Floe, and its admin's token."""

    def __init__(self, floe, token):
        self.floe, self.token = floe, token

    def call(self, method, path, body=None):
        return call(self.floe, self.token, method, path, body)

    def al(self, *args, expect=0) -> str:
        """Runs the client's `al` command line against Floe; returns what it printed."""
        env = dict(os.environ, ARRAYLAKE_SERVICE__URI=service(self.floe),
                   ARRAYLAKE_TOKEN=self.token, COLUMNS="200",
                   ARRAYLAKE_CONFIG=str(self.floe.data_dir.parent / "arraylake-config"))
        done = subprocess.run([str(AL), *args], env=env, capture_output=True, text=True,
                              timeout=300)
        output = done.stdout + done.stderr
        assert done.returncode == expect, f"al {' '.join(args)} exited {done.returncode}:\n{output}"
        return output


@pytest.fixture(scope="module")
def org(floe) -> Org:
    """An org of this module's own, created by the server's operator."""
    status, created = call(floe, floe.token, "POST", "/orgs", {"name": ORG})
    assert status == 201, created
    return Org(floe, created["token"])


@pytest.fixture(scope="module")
def client(floe, org) -> Client:
    return Client(service_uri=service(floe), token=org.token)


@pytest.fixture(scope="module")
def metastore(floe, org) -> HttpMetastore:
    """The client's own HTTP layer, for the routes its Client class does not wrap."""
    return HttpMetastore(HttpMetastoreConfig(service(floe), ORG, org.token))


@pytest.fixture(scope="module")
def s3(moto):
    return boto3.client("s3", endpoint_url=moto, region_name="us-east-1",
                        aws_access_key_id=KEY, aws_secret_access_key=SECRET)


def add_moto_bucket(org, s3, moto, nickname, role_arn=ROLE):
    s3.create_bucket(Bucket=nickname)
    auth = {"method": "static", "access_key_id": KEY, "secret_access_key": SECRET}
    if role_arn:
        auth["role_arn"] = role_arn
    status, body = org.call("POST", f"/orgs/{ORG}/buckets", {
        "nickname": nickname, "platform": "s3-compatible", "name": nickname, "endpoint": moto,
        "region": "us-east-1", "path_style": True, "auth": auth})
    assert status == 201, body


def test_orgs(floe, org, client):
    orgs = client.get_orgs()
    assert [org.name for org in orgs] == [ORG]
    assert ORG in org.al("org", "list")
    # The client's diagnostics read the service's version from its root.
    with urllib.request.urlopen(service(floe) + "/") as response:
        root = json.loads(response.read())
    assert root["arraylake_api_version"].startswith("floe ")
    assert root["iceberg_catalog_uri"] == floe.uri


def test_the_local_default_bucket_in_the_clients_model(floe, org, client):
    buckets = client.list_bucket_configs(ORG)
    assert [bucket.nickname for bucket in buckets] == ["default"]
    default = client.get_bucket_config(org=ORG, nickname="default")
    assert default.is_default
    # An S3 bucket at Floe's own S3 endpoint, whose credentials the client asks Floe for.
    assert (default.platform, default.name) == ("s3", "floe-local-bucket")
    assert default.extra_config["endpoint_url"] == service(floe)
    assert default.extra_config["force_path_style"] is True
    assert default.auth_config.method == "aws_customer_managed_role"
    directory = default.extra_config["floe_local_directory"]
    assert pathlib.Path(directory) == floe.data_dir / "buckets" / ORG

    # Floe's own clients still see the directory and the platform "local".
    status, own = org.call("GET", f"/orgs/{ORG}/buckets/default")
    assert status == 200 and (own["platform"], own["name"]) == ("local", directory)

    # The endpoint answers no request that credentials Floe vended did not sign.
    store = boto3.client("s3", endpoint_url=service(floe), region_name="us-east-1",
                         aws_access_key_id="x", aws_secret_access_key="y")
    with pytest.raises(botocore.exceptions.ClientError, match="InvalidAccessKeyId|AccessDenied"):
        store.list_objects_v2(Bucket=default.name)


def test_buckets_are_created_updated_made_default_and_deleted_by_the_client(org, client, metastore,
                                                                            moto, s3):
    s3.create_bucket(Bucket="archive")
    created = client.create_bucket_config(
        org=ORG, nickname="archive", uri="s3://archive/floe", region_name="us-east-1",
        endpoint_url=moto, force_path_style=True,
        auth_config={"method": "hmac", "access_key_id": KEY, "secret_access_key": SECRET})
    assert (created.platform, created.name, created.prefix) == ("s3-compatible", "archive", "floe")
    assert created.extra_config == {"region_name": "us-east-1", "endpoint_url": moto,
                                    "use_ssl": False, "force_path_style": True}
    # The keys went to the server and stay there.
    assert created.auth_config is None
    status, own = org.call("GET", f"/orgs/{ORG}/buckets/archive")
    assert own["auth"]["method"] == "static" and SECRET not in json.dumps(own)

    public = client.create_bucket_config(org=ORG, nickname="public-data",
                                         uri="gs://public-data")
    assert public.platform == "gs" and public.auth_config.method == "anonymous"
    assert org.call("GET", f"/orgs/{ORG}/buckets/public-data")[1]["platform"] == "gcs"

    updated = asyncio.run(metastore.modify_bucket_config(
        created.id, BucketModifyRequest(extra_config={"region_name": "eu-west-1",
                                                      "endpoint_url": moto, "use_ssl": False})))
    assert updated.extra_config["region_name"] == "eu-west-1"
    # use_ssl off without force_path_style means path style, as in the client's own default.
    assert updated.extra_config["force_path_style"] is True
    with pytest.raises(ArraylakeValidationError, match="cannot be renamed"):
        asyncio.run(metastore.modify_bucket_config(created.id,
                                                   BucketModifyRequest(nickname="renamed")))

    client.set_default_bucket_config(org=ORG, nickname="archive")
    assert {b.nickname: b.is_default for b in client.list_bucket_configs(ORG)} == {
        "default": False, "archive": True, "public-data": False}
    client.set_default_bucket_config(org=ORG, nickname="default")

    with pytest.raises(ArraylakeValidationError, match="cannot use auth_config method"):
        client.create_bucket_config(
            org=ORG, nickname="by-role", uri="s3://by-role", region_name="us-east-1",
            auth_config={"method": "aws_customer_managed_role", "external_customer_id": "1",
                         "external_role_name": "r", "shared_secret": "s3cr3t-id"})

    client.delete_bucket_config(org=ORG, nickname="public-data", imsure=True, imreallysure=True)
    client.delete_bucket_config(org=ORG, nickname="archive", imsure=True, imreallysure=True)
    assert [b.nickname for b in client.list_bucket_configs(ORG)] == ["default"]


def test_repos_on_the_local_bucket(org, client):
    # Floe creates the repository on its own disk; the client can list, describe, open and
    # delete it.
    status, body = org.call("POST", f"/orgs/{ORG}/repos",
                        {"name": "stations", "description": "Station metadata"})
    assert status == 201, body
    listed = client.list_repos(ORG)
    assert [repo.name for repo in listed] == ["stations"]
    assert "stations" in org.al("repo", "list", ORG)
    repo = client.get_repo_object(f"{ORG}/stations")
    assert (repo.description, repo.status.mode, repo.bucket.nickname) == (
        "Station metadata", "online", "default")
    assert repo.prefix == body["prefix"]
    assert client.list_repos_for_bucket_config(org=ORG, nickname="default")[0].name == "stations"

    client.modify_repo(f"{ORG}/stations", description="Weather stations")
    assert client.get_repo_object(f"{ORG}/stations").description == "Weather stations"
    org.al("repo", "modify", f"{ORG}/stations", "--description", "Stations, quality-checked")
    assert client.get_repo_object(f"{ORG}/stations").description == "Stations, quality-checked"
    with pytest.raises(ArraylakeValidationError, match="no metadata"):
        client.modify_repo(f"{ORG}/stations", add_metadata={"region": "US"})
    assert "online" in org.al("repo", "get-status", f"{ORG}/stations")

    # The client opens the repository Floe made, through Floe's S3 endpoint.
    opened = client.get_repo(f"{ORG}/stations")
    assert [branch for branch in opened.list_branches()] == ["main"]

    client.delete_repo(f"{ORG}/stations", imsure=True, imreallysure=True)
    assert len(client.list_repos(ORG)) == 0
    ghosts = client.list_repos(ORG, include_ghosts=True)
    assert [(g.name, g.deleted_at is not None) for g in ghosts] == [("stations", True)]
    status, _ = org.call("POST", f"/orgs/{ORG}/repos/stations/restore")
    assert status == 200
    # Immediately: not restorable, so not even a ghost.
    assert "cannot restore" in org.al("repo", "delete", f"{ORG}/stations", "--confirm",
                                      "--immediate")
    assert len(client.list_repos(ORG, include_ghosts=True)) == 0


def test_the_client_creates_writes_and_reads_a_repo_on_the_local_bucket(floe, org, client):
    """The embedded default, out of the box: the client creates the repository itself, writes
    and reads arrays with zarr through Floe's S3 endpoint, and Python icechunk opens it with what
    Floe vends for it (GET /repos/{org}/{repo}/open)."""
    repo = client.create_repo(f"{ORG}/ocean", description="Sea surface")
    session = repo.writable_session("main")
    temperatures = zarr.group(store=session.store).create_array(
        "sst", shape=(8,), chunks=(4,), dtype="f4")
    temperatures[:] = np.arange(8, dtype="f4") / 2
    snapshot = session.commit("first fields")

    prefix = client.get_repo_object(f"{ORG}/ocean").prefix
    directory = floe.data_dir / "buckets" / ORG / prefix
    assert (directory / "repo").is_file()
    assert any((directory / "manifests").iterdir())
    status, log = org.call("GET", f"/orgs/{ORG}/repos/ocean/log")
    assert status == 200 and log["commits"][0]["id"] == snapshot

    reopened = client.get_repo(f"{ORG}/ocean")
    values = zarr.open_group(reopened.readonly_session("main").store, mode="r")["sst"]
    assert values[:].tolist() == [0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5]
    assert "sst" in org.al("repo", "tree", f"{ORG}/ocean")

    status, opened = org.call("GET", f"/repos/{ORG}/ocean/open")
    assert status == 200, opened
    bucket, keys = opened["repo_bucket"], opened["repo_credentials"]
    storage = icechunk.s3_storage(
        bucket=bucket["name"], prefix=opened["repo_prefix"],
        region=bucket["extra_config"]["region_name"],
        endpoint_url=bucket["extra_config"]["endpoint_url"], allow_http=True,
        force_path_style=True, access_key_id=keys["aws_access_key_id"],
        secret_access_key=keys["aws_secret_access_key"])
    direct = icechunk.Repository.open(storage)
    assert zarr.open_group(direct.readonly_session("main").store, mode="r")["sst"][3] == 1.5

    client.delete_repo(f"{ORG}/ocean", imsure=True, imreallysure=True, immediate=True)
    assert "ocean" not in {r.name for r in client.list_repos(ORG, include_ghosts=True)}


def test_the_documented_client_session_runs_as_written(floe):
    """docs/management-api.md's arraylake block, against the server's first org."""
    block, = readme.page_blocks("management-api.md", "## The arraylake client", "python")
    scope = readme.run_python(block, floe)
    assert scope["values"].tolist() == [0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5]


def test_no_key_outside_a_repos_prefix_is_reachable_and_others_get_403(floe, org, client):
    """Credentials Floe vends for one repo reach that repo's prefix and nothing else; a token
    without access to a repo gets no credentials, and the endpoint answers 403 to anything it
    did not sign."""
    client.create_repo(f"{ORG}/mine")
    client.create_repo(f"{ORG}/theirs")
    mine = client.get_repo_object(f"{ORG}/mine").prefix
    theirs = client.get_repo_object(f"{ORG}/theirs").prefix
    status, keys = org.call("GET", f"/repos/{ORG}/mine/bucket-credentials")
    assert status == 200, keys
    s3 = boto3.client("s3", endpoint_url=service(floe), region_name="us-east-1",
                      aws_access_key_id=keys["aws_access_key_id"],
                      aws_secret_access_key=keys["aws_secret_access_key"])
    s3.put_object(Bucket="floe-local-bucket", Key=f"{mine}/note", Body=b"mine")
    for key in (f"{theirs}/repo", f"{theirs}/note", "note", f"{mine}x/note"):
        for attempt in (lambda: s3.get_object(Bucket="floe-local-bucket", Key=key),
                        lambda: s3.put_object(Bucket="floe-local-bucket", Key=key, Body=b"x"),
                        lambda: s3.delete_object(Bucket="floe-local-bucket", Key=key)):
            with pytest.raises(botocore.exceptions.ClientError) as refused:
                attempt()
            assert refused.value.response["ResponseMetadata"]["HTTPStatusCode"] == 403, key
    for prefix in ("", f"{theirs}/"):
        with pytest.raises(botocore.exceptions.ClientError, match="AccessDenied"):
            s3.list_objects_v2(Bucket="floe-local-bucket", Prefix=prefix)
    assert not (floe.data_dir / "buckets" / ORG / theirs / "note").exists()

    # A member who may not open the repo gets no credentials; its token opens nothing.
    status, member = org.call("POST", f"/orgs/{ORG}/users", {"name": "Rory"})
    assert status == 201, member
    status, issued = org.call("POST", f"/orgs/{ORG}/tokens", {"principal_id": member["id"]})
    assert status == 201, issued
    status, _ = call(floe, issued["token"], "GET", f"/repos/{ORG}/mine/bucket-credentials")
    assert status in (403, 404)
    with_token = boto3.client("s3", endpoint_url=service(floe), region_name="us-east-1",
                              aws_access_key_id=issued["token"],
                              aws_secret_access_key=issued["token"])
    with pytest.raises(botocore.exceptions.ClientError) as refused:
        with_token.get_object(Bucket="floe-local-bucket", Key=f"{mine}/note")
    assert refused.value.response["ResponseMetadata"]["HTTPStatusCode"] == 403
    for name in ("mine", "theirs"):
        client.delete_repo(f"{ORG}/{name}", imsure=True, imreallysure=True, immediate=True)


def test_the_client_creates_writes_and_reads_a_repo_on_s3(org, client, metastore, moto, s3):
    add_moto_bucket(org, s3, moto, "lake")
    bucket = client.get_bucket_config(org=ORG, nickname="lake")
    # With a role to assume, the client asks Floe for credentials for each repo.
    assert bucket.platform == "s3" and bucket.extra_config["endpoint_url"] == moto
    assert bucket.auth_config.method == "aws_customer_managed_role"

    repo = client.create_repo(f"{ORG}/weather", bucket_config_nickname="lake",
                              description="Reanalysis fields")
    session = repo.writable_session("main")
    temperatures = zarr.group(store=session.store).create_array(
        "temperature", shape=(6,), chunks=(3,), dtype="f8")
    temperatures[:] = np.arange(6) * 1.5
    snapshot = session.commit("first fields")

    # The client wrote under the prefix Floe claimed for the repo, and Floe reads what it wrote.
    prefix = client.get_repo_object(f"{ORG}/weather").prefix
    keys = [item["Key"] for item in s3.list_objects_v2(Bucket="lake")["Contents"]]
    assert keys and all(key.startswith(prefix + "/") for key in keys), keys
    status, log = org.call("GET", f"/orgs/{ORG}/repos/weather/log")
    assert status == 200 and log["commits"][0]["id"] == snapshot
    assert log["commits"][0]["metadata"]["author_email"].endswith("@floe.internal")

    reopened = client.get_repo(f"{ORG}/weather")
    values = zarr.open_group(reopened.readonly_session("main").store, mode="r")["temperature"]
    assert values[:].tolist() == [0.0, 1.5, 3.0, 4.5, 6.0, 7.5]
    assert "temperature" in org.al("repo", "tree", f"{ORG}/weather")
    assert client.get_or_create_repo(f"{ORG}/weather", bucket_config_nickname="lake") is not None
    assert client.get_icechunk_storage(f"{ORG}/weather") is not None

    vended = asyncio.run(metastore.get_s3_bucket_credentials_from_repo("weather"))
    assert vended.aws_access_key_id != KEY and vended.aws_session_token
    assert vended.expiration is not None

    org.al("repo", "create", f"{ORG}/climate", "--bucket-config-nickname", "lake")
    assert {r.name for r in client.list_repos(ORG)} >= {"weather", "climate"}
    client.delete_repo(f"{ORG}/climate", imsure=True, imreallysure=True, immediate=True)
    assert "climate" not in {r.name for r in client.list_repos(ORG, include_ghosts=True)}


def test_the_client_cannot_create_a_repo_where_it_would_get_no_credentials(org, client, moto,
                                                                          s3):
    # No role to assume: Floe has no credentials to give the client, which would then write
    # anonymously. Refused before anything is claimed, with what to do instead.
    add_moto_bucket(org, s3, moto, "keys-only", role_arn=None)
    with pytest.raises(ArraylakeClientError, match="Add a role, or let Floe create the repo"):
        client.create_repo(f"{ORG}/orphan", bucket_config_nickname="keys-only")
    assert "orphan" not in {r.name for r in client.list_repos(ORG, include_ghosts=True)}
    assert "Contents" not in s3.list_objects_v2(Bucket="keys-only")
    # Floe itself can: it writes with the bucket's own keys.
    status, created = org.call("POST", f"/orgs/{ORG}/repos",
                               {"name": "by-floe", "bucket_nickname": "keys-only"})
    assert status == 201, created
    assert client.get_repo_object(f"{ORG}/by-floe").bucket.nickname == "keys-only"


def test_what_floe_does_not_have_answers_with_a_reason(org, client, metastore):
    status, _ = org.call("POST", f"/orgs/{ORG}/repos", {"name": "sample"})
    assert status == 201

    def refused(call_it, reason):
        with pytest.raises(ArraylakeClientError, match=reason) as error:
            call_it()
        assert error.value.status_code == 406
        assert error.value.request_id

    refused(lambda: client.get_services(ORG).list_enabled(), "compute")
    refused(lambda: client.list_virtual_chunk_access_policies(ORG), "access policies")
    refused(lambda: client.set_virtual_chunk_access_policy(
        ORG, bucket_nickname="default", subprefix="", public=False), "access policies")
    refused(lambda: client.delete_virtual_chunk_access_policy(
        ORG, bucket_nickname="default", subprefix="", public=False), "access policies")
    refused(lambda: client.get_virtual_chunk_containers(f"{ORG}/sample"),
            "virtual chunk containers")
    refused(lambda: client.update_virtual_chunk_containers(
        f"{ORG}/sample", add={"s3://elsewhere/data/": "default"}), "virtual chunk containers")
    refused(lambda: client.import_repo(f"{ORG}/imported", "default", "some/prefix"),
            "does not import")
    refused(lambda: asyncio.run(client.aclient._set_repo_status(
        f"{ORG}/sample", RepoOperationMode.MAINTENANCE)), "always online")
    # Only the asynchronous client has these two.
    refused(lambda: asyncio.run(client.aclient.get_api_client_from_token(ORG, org.token)),
            "tokens")
    refused(lambda: asyncio.run(client.aclient.get_permission_check(
        ORG, "x", "y", OrgActions.CAN_MANAGE_USERS)), "grants")
    refused(lambda: asyncio.run(metastore.get_s3_bucket_credentials_from_bucket(
        client.get_bucket_config(org=ORG, nickname="default").id)), "whole bucket")
    # Interactive login: the client reports what the server said.
    with pytest.raises(AuthException, match="no interactive login"):
        client.login()
    assert "always online" in org.al("repo", "set-status", f"{ORG}/sample", "offline",
                                 expect=1)
    assert "compute" in org.al("compute", "list", ORG, expect=1)
