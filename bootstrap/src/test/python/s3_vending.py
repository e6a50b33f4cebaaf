"""The setup of an S3 bucket that vends credentials, on moto: a server key pair allowed S3 and
AssumeRole, a role whose sessions may use S3, and moto checking every request's signature and
IAM permissions as S3 and STS do, so that an engine holding no key of its own can only work
with the sessions Floe vends."""

import contextlib
import json

import boto3
import requests
from moto import settings as moto_settings


@contextlib.contextmanager
def vending_identity(moto: str, role_name: str):
    """Yields (server key id, server secret, role ARN); checks signatures until the end."""
    iam = boto3.client("iam", endpoint_url=moto, region_name="us-east-1",
                       aws_access_key_id="setup", aws_secret_access_key="setup")
    user = f"{role_name}-server"
    iam.create_user(UserName=user)
    iam.put_user_policy(UserName=user, PolicyName="s3-and-sts",
                        PolicyDocument=json.dumps({"Version": "2012-10-17", "Statement": [
                            {"Effect": "Allow", "Action": ["s3:*", "sts:AssumeRole"],
                             "Resource": "*"}]}))
    key = iam.create_access_key(UserName=user)["AccessKey"]
    role = iam.create_role(RoleName=role_name, AssumeRolePolicyDocument=json.dumps({
        "Version": "2012-10-17", "Statement": [
            {"Effect": "Allow", "Principal": {"AWS": "*"}, "Action": "sts:AssumeRole"}]}))
    iam.put_role_policy(RoleName=role_name, PolicyName="s3",
                        PolicyDocument=json.dumps({"Version": "2012-10-17", "Statement": [
                            {"Effect": "Allow", "Action": "s3:*", "Resource": "*"}]}))
    before = moto_settings.INITIAL_NO_AUTH_ACTION_COUNT
    moto_settings.INITIAL_NO_AUTH_ACTION_COUNT = 0
    try:
        yield key["AccessKeyId"], key["SecretAccessKey"], role["Role"]["Arn"]
    finally:
        moto_settings.INITIAL_NO_AUTH_ACTION_COUNT = before


def add_bucket(floe, moto: str, identity, name: str) -> None:
    """Creates the S3 bucket `name` on moto and Floe's bucket configuration for it, nicknamed
    `name`: the server's static keys and the role Floe assumes to vend credentials."""
    key_id, secret, role = identity
    boto3.client("s3", endpoint_url=moto, region_name="us-east-1", aws_access_key_id=key_id,
                 aws_secret_access_key=secret).create_bucket(Bucket=name)
    created = requests.post(
        f"http://127.0.0.1:{floe.port}/orgs/{floe.warehouse}/buckets",
        headers={"Authorization": f"Bearer {floe.token}"}, timeout=60,
        json={"nickname": name, "platform": "s3-compatible", "name": name, "endpoint": moto,
              "region": "us-east-1", "path_style": True,
              "auth": {"method": "static", "access_key_id": key_id, "secret_access_key": secret,
                       "role_arn": role}})
    assert created.status_code == 201, created.text


def keys(moto: str, identity, bucket: str) -> list[str]:
    """Every key in `bucket`, listed with the server's keys."""
    key_id, secret, _ = identity
    listed = boto3.client("s3", endpoint_url=moto, region_name="us-east-1",
                          aws_access_key_id=key_id, aws_secret_access_key=secret) \
        .list_objects_v2(Bucket=bucket)
    return [item["Key"] for item in listed.get("Contents", [])]
