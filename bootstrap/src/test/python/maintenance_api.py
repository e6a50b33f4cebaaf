"""What the maintenance tests ask of a running Floe: management calls as its admin, a table's
maintenance jobs, and a table's rows in a comparable order."""

import requests


def api(floe, method, path, body=None):
    """A management call as the admin: its status and its JSON answer (None when empty)."""
    response = requests.request(method, f"http://127.0.0.1:{floe.port}{path}", json=body,
                                headers={"Authorization": f"Bearer {floe.token}"}, timeout=60)
    return response.status_code, response.json() if response.content else None


def jobs(floe, namespace, table):
    """The maintenance jobs of `namespace.table`, as the API lists them."""
    status, body = api(floe, "GET", f"/orgs/{floe.warehouse}/iceberg/namespaces/{namespace}"
                       f"/tables/{table}/maintenance/jobs")
    assert status == 200, body
    return body["jobs"]


def rows(table):
    """A PyIceberg table's rows, sorted, as tuples."""
    return sorted(tuple(row.values()) for row in table.scan().to_arrow().to_pylist())
