"""Drives Floe's namespace management API with the real arraylake client (its Client methods and
pyiceberg through client.get_iceberg), and prints what it saw as one JSON document for the JUnit
test to check.

Usage: python arraylake_namespaces.py SERVICE_URI TOKEN ORG
"""

import json
import sys

import pyarrow as pa
from arraylake import Client
from arraylake.exceptions import ArraylakeClientError, ArraylakeValidationError
from arraylake.types import RepoVisibility


def main(service_uri: str, token: str, org: str) -> dict:
    client = Client(service_uri=service_uri, token=token)
    seen: dict = {}

    created = client.create_iceberg_namespace(
        org, "observations",
        bucket_config_nickname="default",
        description="Weather station observations",
        metadata={"source": "stations", "quality_checked": True, "count": 3},
        properties={"owner": "science"},
    )
    seen["created"] = created.model_dump(mode="json")

    modified = client.modify_iceberg_namespace(
        org, "observations",
        description="Quality-controlled weather observations",
        add_metadata={"region": "US"},
        update_metadata={"quality_checked": False},
        visibility=RepoVisibility.AUTHENTICATED_PUBLIC,
    )
    seen["modified"] = modified.model_dump(mode="json")
    seen["got"] = client.get_iceberg_namespace(org, "observations").model_dump(mode="json")

    try:
        client.modify_iceberg_namespace(org, "observations", add_metadata={"k": 1}, remove_metadata=["k"])
        seen["overlap_error"] = None
    except ArraylakeValidationError as error:
        seen["overlap_error"] = str(error)

    for name in ["weather-raw", "traffic", "scratch"]:
        client.create_iceberg_namespace(org, name)

    catalog = client.get_iceberg(org)
    data = pa.table({"station": pa.array(["KSEA", "KPDX"], pa.string()), "temp_c": pa.array([11.5, 13.1])})
    table = catalog.create_table("observations.weather", schema=data.schema)
    table.append(data)
    catalog.create_table("observations.stations", schema=data.schema)
    # A dot inside a table name: only a tuple identifier can say where the namespace ends.
    catalog.create_table(("observations", "weather.daily"), schema=data.schema)
    seen["catalog_namespaces"] = sorted(ns[0] for ns in catalog.list_namespaces())
    seen["rows"] = catalog.load_table("observations.weather").scan().to_arrow().num_rows

    seen["plain_list"] = [ns.name for ns in client.list_iceberg_namespaces(org)]
    seen["search"] = [ns.name for ns in client.list_iceberg_namespaces(org, search="weather")]
    seen["filtered"] = [ns.name for ns in client.list_iceberg_namespaces(org, filter_metadata={"region": "US"})]
    seen["by_tables"] = [
        (ns.name, ns.table_count, sorted(action.value for action in ns.effective_actions))
        for ns in client.list_iceberg_namespaces_paginated(org, sort="tables", page_size=1)
    ]
    seen["tables"] = [
        (t.name, t.namespace, t.has_storage_override)
        for t in client.list_iceberg_tables(org, "observations", sort="name", direction="asc")
    ]

    try:
        client.delete_iceberg_namespace(org, "observations", imsure=True)
        seen["non_empty_error"] = None
    except ArraylakeClientError as error:
        seen["non_empty_error"] = str(error)

    client.delete_iceberg_namespace(org, "traffic", imsure=True)
    seen["after_delete"] = [ns.name for ns in client.list_iceberg_namespaces(org)]
    seen["ghosts"] = [
        (ns.name, ns.deleted_at is not None) for ns in client.list_iceberg_namespaces(org, include_ghosts=True)
    ]
    client.restore_iceberg_namespace(org, "traffic")
    seen["restored"] = client.get_iceberg_namespace(org, "traffic").deleted_at is None

    client.delete_iceberg_namespace(org, "scratch", imsure=True, immediate=True)
    seen["recreated_prefix_differs"] = (
        client.create_iceberg_namespace(org, "scratch").prefix != created.prefix
    )
    catalog.close()
    return seen


if __name__ == "__main__":
    print(json.dumps(main(*sys.argv[1:4])))
