"""The web app in a real browser: Debian's Chromium, driven by Playwright, against the Floe that
`java -jar floe.jar serve` runs (conftest.py). It signs in with the admin token, walks org ->
namespace -> table and org -> repo, edits a description, adds and removes a grant, issues and
revokes a token, looks at the org as a reader, and fails on any console error of any page.

Screenshots of each page go to a temporary directory, or to FLOE_SCREENSHOTS when it is set
(the docs' come from `FLOE_SCREENSHOTS=docs/screenshots`)."""

import os
import pathlib
import re
import urllib.parse

import pyarrow as pa
import pytest
import requests

from pyiceberg.partitioning import PartitionField, PartitionSpec
from pyiceberg.schema import Schema
from pyiceberg.table.sorting import SortField, SortOrder
from pyiceberg.transforms import IdentityTransform
from pyiceberg.types import (DoubleType, ListType, MapType, NestedField, StringType,
                             StructType)

import readme
import repo_commit

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

CHROMIUM = os.environ.get("FLOE_CHROMIUM", "/usr/bin/chromium")
# Without the background-networking flags Chromium calls home on start, which a closed network
# refuses; the rest keep it headless and quiet.
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
NAMESPACE = "web-tables"
TABLE = "observations"


def _api(floe, method, path, token=None, **kwargs):
    response = requests.request(method, f"http://127.0.0.1:{floe.port}{path}",
                                headers={"Authorization": f"Bearer {token or floe.token}"},
                                timeout=30, **kwargs)
    return response


def _nested_schema():
    return Schema(
        NestedField(1, "station", StringType(), required=True, doc="ICAO code"),
        NestedField(2, "location", StructType(
            NestedField(3, "lat", DoubleType(), required=True),
            NestedField(4, "lon", DoubleType(), required=True)), required=False),
        NestedField(5, "tags", ListType(element_id=6, element_type=StringType(),
                                        element_required=False), required=False),
        NestedField(7, "readings", MapType(key_id=8, key_type=StringType(), value_id=9,
                                           value_type=DoubleType(), value_required=False),
                    required=False),
        NestedField(10, "region", StringType(), required=False))


@pytest.fixture(scope="module")
def seeded(floe):
    """A namespace and a table with two snapshots, written by PyIceberg as the docs say, and a
    reader who may read the table and nothing else."""
    catalog = readme.pyiceberg_catalog(floe)
    catalog.create_namespace(NAMESPACE, properties={"owner": "science"})
    rows = pa.table({"station": ["KSEA", "KPDX"], "temp_c": [11.5, 13.1]})
    table = catalog.create_table(f"{NAMESPACE}.{TABLE}", schema=rows.schema)
    table.append(rows)
    table.append(pa.table({"station": ["KSFO"], "temp_c": [14.2]}))
    catalog.create_table((NAMESPACE, "daily.v2"), schema=rows.schema)
    catalog.create_table(f"{NAMESPACE}.stations", schema=_nested_schema(),
                         partition_spec=PartitionSpec(PartitionField(
                             source_id=10, field_id=1000, transform=IdentityTransform(),
                             name="region")),
                         sort_order=SortOrder(SortField(source_id=1,
                                                        transform=IdentityTransform())))
    catalog.create_namespace("web-hidden")
    org = floe.warehouse
    reader = _api(floe, "POST", f"/orgs/{org}/users", json={"name": "Rita Reader"}).json()
    token = _api(floe, "POST", f"/orgs/{org}/tokens",
                 json={"principal_id": reader["id"], "description": "browser"}).json()["token"]
    granted = _api(floe, "POST", f"/orgs/{org}/grants",
                   json={"principal_id": reader["id"], "namespace": NAMESPACE, "action": "read"})
    assert granted.status_code == 201, granted.text
    return {"reader_id": reader["id"], "reader_token": token}


@pytest.fixture(scope="module")
def browser():
    if not pathlib.Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing: apt-get install chromium")
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    target = os.environ.get("FLOE_SCREENSHOTS")
    directory = pathlib.Path(target) if target else tmp_path_factory.mktemp("screenshots")
    directory.mkdir(parents=True, exist_ok=True)
    return directory


class Watched:
    """A page whose console errors and uncaught exceptions are collected, and asserted absent.
    Chromium logs a document answered with an error status as a console error too; only the
    documents a test asks for on purpose (`refused`) are let through."""

    def __init__(self, context, base):
        self.page = context.new_page()
        self.base = base
        self.errors = []
        self.refused_urls = set()
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.errors.append(f"{self.page.url}: {error}"))

    def _console(self, message):
        if message.type != "error":
            return
        if (message.text.startswith("Failed to load resource: the server responded with a status")
                and message.location.get("url") in self.refused_urls):
            return
        self.errors.append(f"{self.page.url}: {message.text} ({message.location.get('url')})")

    def refused(self, path):
        """A document this test expects an error status for."""
        self.refused_urls.add(self.base + path)

    def goto(self, path, refused=False):
        if refused:
            self.refused(path)
        return self.page.goto(self.base + path)

    def shot(self, directory, name, mask=()):
        self.page.screenshot(path=str(directory / f"{name}.png"), full_page=True,
                             mask=list(mask))

    def assert_quiet(self):
        assert self.errors == [], "console errors:\n" + "\n".join(self.errors)


def _sign_in(context, floe, token, path="/"):
    watched = Watched(context, f"http://127.0.0.1:{floe.port}")
    watched.goto(path)
    expect(watched.page).to_have_url(re.compile(r"/ui/sign-in"))
    watched.page.get_by_label("API token").fill(token)
    watched.page.get_by_role("button", name="Sign in").click()
    return watched


def test_admin_walks_and_edits(floe, seeded, browser, shots):
    context = browser.new_context(viewport={"width": 1280, "height": 900},
                                  permissions=["clipboard-read", "clipboard-write"])
    admin = _sign_in(context, floe, floe.token)
    page = admin.page
    org = floe.warehouse

    # Org home: namespaces and repos side by side.
    expect(page).to_have_url(re.compile(rf"/ui/orgs/{org}$"))
    expect(page.get_by_role("heading", name="Iceberg namespaces")).to_be_visible()
    expect(page.get_by_role("heading", name="Icechunk repos")).to_be_visible()
    expect(page.get_by_role("link", name=NAMESPACE)).to_be_visible()

    # The session cookie: HttpOnly, SameSite=Strict, and not the token.
    cookie = next(c for c in context.cookies() if c["name"] == "floe_session")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
    assert floe.token not in cookie["value"]

    # Search narrows the listing (the management API's own search).
    page.get_by_label("Search").fill("hidden")
    expect(page.get_by_role("link", name="web-hidden")).to_be_visible()
    expect(page.get_by_role("link", name=NAMESPACE)).to_have_count(0)
    page.get_by_label("Search").fill("")
    expect(page.get_by_role("link", name=NAMESPACE)).to_be_visible()

    # Namespace page, its tabs.
    page.get_by_role("link", name=NAMESPACE).click()
    expect(page.get_by_role("heading", name=re.compile(NAMESPACE))).to_be_visible()
    expect(page.get_by_role("tab", name="Tables")).to_have_attribute("aria-selected", "true")
    expect(page.get_by_role("tabpanel")).to_have_count(1)
    expect(page.get_by_role("link", name=TABLE, exact=True)).to_be_visible()
    admin.shot(shots, "namespace")

    # Settings -> General: description and typed metadata; properties read-only.
    page.get_by_role("tab", name="Settings").click()
    expect(page.get_by_role("tab", name="Settings")).to_have_attribute("aria-selected", "true")
    expect(page.get_by_role("cell", name="owner")).to_be_visible()
    page.get_by_label("Description").fill("Weather station observations")
    page.get_by_label("Metadata", exact=True).fill("source = stations\nquality_checked = true\n")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("status")).to_have_text("Saved.")
    expect(page.locator(".page-head .description")).to_have_text("Weather station observations")
    stored = _api(floe, "GET", f"/orgs/{org}/iceberg/namespaces/{NAMESPACE}").json()
    assert stored["description"] == "Weather station observations"
    assert stored["metadata"] == {"source": "stations", "quality_checked": True}
    admin.shot(shots, "namespace-settings")

    # Bad metadata is refused with a readable reason, and nothing changes.
    page.get_by_label("Metadata", exact=True).fill("this line has no equals sign")
    admin.refused(f"/ui/orgs/{org}/namespaces/{NAMESPACE}/settings")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("alert")).to_contain_text("not of the form key = value")
    assert _api(floe, "GET", f"/orgs/{org}/iceberg/namespaces/{NAMESPACE}").json()["metadata"] \
        == {"source": "stations", "quality_checked": True}

    # Access: a table grant added, then removed.
    admin.goto(f"/ui/orgs/{org}/namespaces/{NAMESPACE}?tab=access")
    expect(page.get_by_role("tab", name="Access")).to_have_attribute("aria-selected", "true")
    page.get_by_label("Who", exact=True).select_option(label="Rita Reader (user)")
    page.get_by_label("Table (empty: the whole namespace)").fill(TABLE)
    page.get_by_label("Action", exact=True).select_option("write")
    page.get_by_role("button", name="Grant").click()
    expect(page.get_by_role("status")).to_have_text("Access granted.")
    remove = page.get_by_role("button", name=f"Remove write for Rita Reader on table {TABLE}")
    expect(remove).to_be_visible()
    grants = _api(floe, "GET", f"/orgs/{org}/grants?namespace={NAMESPACE}").json()
    assert any(g.get("table") == TABLE and g["action"] == "write" for g in grants), grants
    admin.shot(shots, "namespace-access")
    remove.click()
    expect(page.get_by_role("status")).to_have_text("Access removed.")
    expect(remove).to_have_count(0)
    grants = _api(floe, "GET", f"/orgs/{org}/grants?namespace={NAMESPACE}").json()
    assert not any(g.get("table") == TABLE for g in grants), grants

    # Connect: the configuration lines of docs/engines.md, with this server's URI and warehouse.
    page.get_by_role("tab", name="Connect").click()
    duck = page.locator("#connect-duckdb").text_content()
    for line in readme.blocks("DuckDB")[1].splitlines():
        if line.startswith(("CREATE SECRET", "ATTACH", "LOAD")):
            assert readme.for_server(line, floe).replace(floe.token, "ema_...") in duck, line
    spark = page.locator("#connect-spark").text_content()
    for line in readme.blocks("Spark")[0].splitlines():
        assert readme.for_server(line, floe).replace(floe.token, "ema_...") in spark, line
    trino = page.locator("#connect-trino").text_content()
    for line in readme.blocks("Trino")[0].splitlines():
        assert readme.for_server(line, floe).replace(floe.token, "ema_...") in trino, line
    # Copy takes the catalog file alone, which Trino reads as it is; the first query is apart.
    page.get_by_role("button", name="Copy the Trino snippet").click()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == trino
    assert all(line.startswith("#") or "=" in line for line in copied.splitlines() if line), \
        copied
    expect(page.locator("#connect-trino-then")).to_have_text(
        f'SHOW TABLES FROM floe."{NAMESPACE}";')
    page.get_by_role("button", name="Copy the Spark snippet").click()
    assert page.evaluate("navigator.clipboard.readText()") == spark
    assert "SHOW TABLES" not in spark
    admin.shot(shots, "namespace-connect")

    # Table page: identifier with copy button, nested schema, partition spec, sort order.
    admin.goto(f"/ui/orgs/{org}/namespaces/{NAMESPACE}")
    quoted = f'{NAMESPACE}."daily.v2"'
    expect(page.get_by_role("cell", name=quoted)).to_be_visible()
    page.get_by_role("link", name="stations").click()
    expect(page.locator("#table-identifier")).to_have_text(f"{NAMESPACE}.stations")
    # A table without a snapshot opens on its data, which says there is none yet.
    expect(page.locator("#data-counts")).to_have_text("0 rows in 0 data files (current snapshot)")
    expect(page.locator("#data-empty")).to_contain_text("no snapshot yet")
    page.get_by_role("tab", name="Schema").click()
    expect(page.get_by_role("row", name=re.compile(r"station\s+string\s+required.*ICAO code")))\
        .to_be_visible()
    expect(page.get_by_role("row", name=re.compile(r"^lat\s+double\s+required"))).to_be_visible()
    expect(page.get_by_role("row", name=re.compile(r"^tags\s+list<string>"))).to_be_visible()
    expect(page.get_by_role("row", name=re.compile(r"^readings\s+map<string, double>")))\
        .to_be_visible()
    expect(page.get_by_role("row", name=re.compile(r"^region\s+region\s+identity")))\
        .to_be_visible()
    expect(page.get_by_role("row", name=re.compile(r"^station\s+identity\s+asc")))\
        .to_be_visible()
    admin.shot(shots, "table-schema")

    # The identifier copies as the command line writes it, double quotes and all.
    admin.goto(f"/ui/orgs/{org}/namespaces/{NAMESPACE}/tables/daily.v2")
    expect(page.locator("#table-identifier")).to_have_text(quoted)
    page.get_by_role("button", name=f"Copy identifier {quoted}").click()
    expect(page.get_by_role("button", name=f"Copy identifier {quoted}")).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == quoted

    # The first thing a table shows: its rows (read by the server from the current snapshot)
    # and how many rows and data files it holds.
    admin.goto(f"/ui/orgs/{org}/namespaces/{NAMESPACE}/tables/{TABLE}")
    expect(page.get_by_role("tab", name="Data")).to_have_attribute("aria-selected", "true")
    expect(page.locator("#data-counts")).to_have_text("3 rows in 2 data files (current snapshot)")
    preview = page.locator("#data-preview")
    expect(preview.get_by_role("columnheader")).to_have_text(["station", "temp_c"])
    expect(preview.locator("tbody tr")).to_have_count(3)
    shown = sorted(tuple(row.locator("td").all_text_contents())
                   for row in preview.locator("tbody tr").all())
    assert shown == [("KPDX", "13.1"), ("KSEA", "11.5"), ("KSFO", "14.2")], shown
    admin.shot(shots, "table-data")

    # Maintenance: the policy that applies, each setting with the level it comes from. Only
    # settings that change nothing here (no compaction; expiry of what is a month old).
    policies = {f"/orgs/{org}/iceberg/namespaces/{NAMESPACE}/maintenance-policy":
                {"snapshot_max_age_seconds": 30 * 86400, "min_snapshots_to_keep": 10},
                f"/orgs/{org}/iceberg/namespaces/{NAMESPACE}/tables/daily.v2/maintenance-policy":
                {"orphan_grace_seconds": 7 * 86400}}
    for path, policy in policies.items():
        assert _api(floe, "PUT", path, json=policy).status_code == 200
    try:
        admin.goto(f"/ui/orgs/{org}/namespaces/{NAMESPACE}/tables/daily.v2?tab=maintenance")
        expect(page.get_by_role("tab", name="Maintenance"))\
            .to_have_attribute("aria-selected", "true")
        settings = page.locator("#maintenance-policy tbody tr")
        expect(settings).to_have_count(3)
        shown = [tuple(row.locator("td").all_text_contents()) for row in settings.all()]
        assert shown == [
            ("Expire snapshots older than snapshot_max_age_seconds", "30 days", "namespace"),
            ("Keep at least this many snapshots min_snapshots_to_keep", "10", "namespace"),
            ("Remove unreferenced files older than orphan_grace_seconds", "7 days", "table"),
        ], shown
        admin.shot(shots, "table-maintenance")
    finally:
        for path in policies:
            _api(floe, "DELETE", path)
    admin.goto(f"/ui/orgs/{org}/namespaces/{NAMESPACE}/tables/daily.v2?tab=maintenance")
    expect(page.locator("#maintenance-note")).to_contain_text("No maintenance policy applies")

    # Snapshots: the history table and the server-drawn chart of rows and data files.
    admin.goto(f"/ui/orgs/{org}/namespaces/{NAMESPACE}/tables/{TABLE}?tab=snapshots")
    history = page.get_by_role("tabpanel").get_by_role("row")
    expect(history).to_have_count(3)  # a header and two snapshots
    expect(history.nth(1)).to_contain_text("current")
    expect(history.nth(1).get_by_role("cell").nth(4)).to_have_text("3")
    chart = page.get_by_role("img", name=re.compile("Rows and data files over snapshots"))
    expect(chart).to_be_visible()
    assert chart.locator("circle.rows-dot").count() == 2
    assert chart.locator("path.rows").get_attribute("d").startswith("M")
    admin.shot(shots, "table-snapshots")
    page.get_by_role("tab", name="Connect").click()
    expect(page.locator("#connect-duckdb")).to_contain_text(
        f'SELECT * FROM floe."{NAMESPACE}".{TABLE} LIMIT 10;')

    # Pages that cannot be shown say why, as pages, never as a server error.
    response = admin.goto(f"/ui/orgs/{org}/namespaces/no-such-namespace", refused=True)
    assert response.status == 404
    expect(page.get_by_role("alert")).to_contain_text("does not exist")
    response = admin.goto("/ui/no/such/page", refused=True)
    assert response.status == 404
    expect(page.get_by_role("heading", name="Not found")).to_be_visible()

    # A form without its token is refused and changes nothing.
    forged = page.request.post(
        f"http://127.0.0.1:{floe.port}/ui/orgs/{org}/namespaces/{NAMESPACE}/settings",
        form={"description": "forged", "metadata": ""}, max_redirects=0)
    assert forged.status == 403
    assert _api(floe, "GET", f"/orgs/{org}/iceberg/namespaces/{NAMESPACE}").json()[
        "description"] == "Weather station observations"

    # Signing out ends the session on the server: the old cookie no longer works.
    admin.goto(f"/ui/orgs/{org}")
    page.get_by_role("button", name="Sign out").click()
    expect(page).to_have_url(re.compile(r"/ui/sign-in"))
    stale = requests.get(f"http://127.0.0.1:{floe.port}/ui/orgs/{org}",
                         cookies={"floe_session": cookie["value"]}, allow_redirects=False,
                         timeout=30)
    assert stale.status_code == 303 and "/ui/sign-in" in stale.headers["Location"]
    admin.assert_quiet()
    context.close()


def test_reader_sees_without_edit_controls(floe, seeded, browser, shots):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    reader = _sign_in(context, floe, seeded["reader_token"])
    page = reader.page
    org = floe.warehouse
    expect(page).to_have_url(re.compile(rf"/ui/orgs/{org}$"))
    expect(page.get_by_role("link", name=NAMESPACE)).to_be_visible()
    # Only what the reader may read: not the other namespace, no repos, no admin pages.
    expect(page.get_by_role("link", name="web-hidden")).to_have_count(0)
    expect(page.get_by_role("heading", name="Icechunk repos")).to_have_count(0)
    expect(page.get_by_role("link", name="API tokens")).to_have_count(0)
    expect(page.get_by_text("New namespace")).to_have_count(0)
    reader.shot(shots, "reader-org-home")

    page.get_by_role("link", name=NAMESPACE).click()
    expect(page.get_by_role("tab", name="Access")).to_have_count(0)
    page.get_by_role("tab", name="Settings").click()
    expect(page.get_by_role("button", name="Save")).to_have_count(0)
    expect(page.get_by_role("button", name="Delete namespace")).to_have_count(0)
    expect(page.get_by_label("Description")).to_have_count(0)
    reader.shot(shots, "reader-namespace")
    # A reader of the namespace sees the table's rows as well.
    reader.goto(f"/ui/orgs/{org}/namespaces/{NAMESPACE}/tables/{TABLE}")
    expect(page.locator("#data-preview tbody tr")).to_have_count(3)

    # What the reader may not see does not exist for it.
    response = reader.goto(f"/ui/orgs/{org}/namespaces/web-hidden", refused=True)
    assert response.status == 404
    # And an admin page is not allowed.
    response = reader.goto(f"/ui/orgs/{org}/admin/tokens", refused=True)
    assert response.status in (403, 404)
    reader.assert_quiet()
    context.close()


def test_create_delete_and_restore_a_namespace(floe, seeded, browser, shots):
    org = floe.warehouse
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    admin = _sign_in(context, floe, floe.token)
    page = admin.page

    # New namespace, on the org's default bucket.
    page.get_by_text("New namespace").click()
    page.get_by_label("Name", exact=True).fill("web-scratch")
    page.get_by_label("Description", exact=True).fill("Scratch space")
    page.get_by_role("button", name="Create").click()
    expect(page.get_by_role("status")).to_have_text("Created.")
    expect(page.get_by_role("heading", name=re.compile("web-scratch"))).to_be_visible()
    assert _api(floe, "GET", f"/orgs/{org}/iceberg/namespaces/web-scratch").json()[
        "bucket_nickname"] == "default"

    # A name that breaks the rules is refused with the rule, as a page.
    admin.goto(f"/ui/orgs/{org}")
    page.get_by_text("New namespace").click()
    page.get_by_label("Name", exact=True).fill("web-tables")
    admin.refused(f"/ui/orgs/{org}/namespaces")
    page.get_by_role("button", name="Create").click()
    expect(page.get_by_role("alert")).to_contain_text("already exists")

    # Delete asks for the name; a wrong one changes nothing.
    admin.goto(f"/ui/orgs/{org}/namespaces/web-scratch?tab=settings")
    page.get_by_label("Type web-scratch to confirm").fill("web-scratc")
    admin.refused(f"/ui/orgs/{org}/namespaces/web-scratch/delete")
    page.get_by_role("button", name="Delete namespace").click()
    expect(page.get_by_role("alert")).to_contain_text("to confirm deleting it")
    assert _api(floe, "GET", f"/orgs/{org}/iceberg/namespaces/web-scratch").status_code == 200
    # A namespace with tables cannot be deleted: the reason is on the page.
    admin.goto(f"/ui/orgs/{org}/namespaces/{NAMESPACE}?tab=settings")
    page.get_by_label(f"Type {NAMESPACE} to confirm").fill(NAMESPACE)
    admin.refused(f"/ui/orgs/{org}/namespaces/{NAMESPACE}/delete")
    page.get_by_role("button", name="Delete namespace").click()
    expect(page.get_by_role("alert")).to_be_visible()
    assert _api(floe, "GET", f"/orgs/{org}/iceberg/namespaces/{NAMESPACE}").status_code == 200

    admin.goto(f"/ui/orgs/{org}/namespaces/web-scratch?tab=settings")
    page.get_by_label("Type web-scratch to confirm").fill("web-scratch")
    page.get_by_role("button", name="Delete namespace").click()
    expect(page.get_by_role("status")).to_have_text("Deleted.")
    expect(page.get_by_label("Show deleted")).to_be_checked()
    expect(page.get_by_text("deleted", exact=True)).to_be_visible()
    admin.shot(shots, "org-home-deleted")
    assert _api(floe, "GET", f"/orgs/{org}/iceberg/namespaces/web-scratch").status_code == 404

    # Restored within the recovery period, with its description.
    page.get_by_role("button", name="Restore namespace web-scratch").click()
    expect(page.get_by_role("status")).to_have_text("Restored.")
    expect(page.locator(".page-head .description")).to_have_text("Scratch space")
    assert _api(floe, "GET", f"/orgs/{org}/iceberg/namespaces/web-scratch").status_code == 200
    admin.assert_quiet()
    context.close()


def test_responsive_and_dark(floe, seeded, browser, shots):
    """The org home on a phone, in the dark scheme: one column, readable, no errors."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme="dark")
    watched = _sign_in(context, floe, floe.token)
    expect(watched.page.get_by_role("heading", name="Iceberg namespaces")).to_be_visible()
    background = watched.page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(13, 17, 23)", background
    width = watched.page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width}px wide on a 390px screen"
    watched.shot(shots, "org-home-phone-dark")
    watched.assert_quiet()
    context.close()


def test_repo_and_admin_pages(floe, seeded, browser, shots):
    org = floe.warehouse
    created = _api(floe, "POST", f"/orgs/{org}/repos",
                   json={"name": "weather", "description": "Reanalysis fields"})
    assert created.status_code == 201, created.text
    repo_commit.main(urllib.parse.urlparse(created.json()["location"]).path)

    context = browser.new_context(viewport={"width": 1280, "height": 900},
                                  permissions=["clipboard-read", "clipboard-write"])
    admin = _sign_in(context, floe, floe.token)
    page = admin.page

    # The org home with both kinds side by side (the docs' screenshot).
    expect(page.get_by_role("link", name="weather")).to_be_visible()
    expect(page.get_by_text("Reanalysis fields")).to_be_visible()
    expect(page.get_by_role("link", name=NAMESPACE)).to_be_visible()
    admin.shot(shots, "org-home")

    # Org -> repo: commit log with metadata, the tree with shapes and chunks, refs, tables.
    page.get_by_role("link", name="weather").click()
    expect(page.get_by_role("heading", name=re.compile("weather"))).to_be_visible()
    expect(page.get_by_text("python commit")).to_be_visible()
    expect(page.get_by_text('{"id":7,"tags":["a","b"]}')).to_be_visible()
    admin.shot(shots, "repo")
    page.get_by_role("tab", name="Tree").click()
    expect(page.get_by_role("row", name=re.compile(r"^t2m\s+array\s+4\s+2\s+float32"))) \
        .to_be_visible()
    expect(page.get_by_role("row", name=re.compile(r"^climate\s+group"))).to_be_visible()
    admin.shot(shots, "repo-tree")
    page.get_by_role("tab", name="Branches & tags").click()
    expect(page.get_by_role("link", name="v1")).to_be_visible()
    page.get_by_role("tab", name="Iceberg tables").click()
    expect(page.get_by_text("This snapshot declares no tables.")).to_be_visible()
    # A table created through the catalog in the repo's namespace: declared, and linked to its page.
    readme.pyiceberg_catalog(floe).create_table(
        "weather.granules", schema=pa.schema([("granule", pa.string()), ("cloud", pa.float64())]))
    admin.goto(f"/ui/orgs/{org}/repos/weather?tab=tables")
    page.get_by_role("link", name="granules").click()
    expect(page.get_by_role("heading", name=re.compile("granules"))).to_be_visible()
    expect(page.locator("#data-empty")).to_contain_text("no snapshot yet")
    page.get_by_role("tab", name="Schema").click()
    expect(page.get_by_role("cell", name="cloud", exact=True)).to_be_visible()
    page.get_by_role("navigation", name="Breadcrumb").get_by_role("link", name="weather").click()
    expect(page.get_by_text("Reanalysis fields")).to_be_visible()

    # Members, and a new API client.
    page.get_by_role("link", name="Members").click()
    expect(page.get_by_role("cell", name="Rita Reader")).to_be_visible()
    page.get_by_label("Kind").select_option("api-client")
    page.get_by_label("Name").fill("nightly-etl")
    page.get_by_role("button", name="Add", exact=True).click()
    expect(page.get_by_role("status")).to_have_text("Created.")
    expect(page.get_by_role("cell", name="nightly-etl")).to_be_visible()
    admin.shot(shots, "admin-members")

    # A token: issued with its secret shown once and copied, it works, then revoked, it does not.
    page.get_by_role("link", name="API tokens").click()
    page.get_by_label("For").select_option(label="nightly-etl (api client)")
    page.get_by_label("Note").fill("etl laptop")
    page.get_by_role("button", name="Issue token").click()
    secret = page.locator("#issued-token").text_content()
    assert re.fullmatch(r"ema_[0-9a-f]{64}", secret), secret
    page.get_by_role("button", name="Copy the new token").click()
    assert page.evaluate("navigator.clipboard.readText()") == secret
    assert _api(floe, "GET", "/user/orgs", token=secret).status_code == 200
    admin.shot(shots, "admin-token-issued", mask=[page.locator("#issued-token")])
    admin.goto(f"/ui/orgs/{org}/admin/tokens")
    expect(page.locator("#issued-token")).to_have_count(0)  # shown once only
    expect(page.get_by_text(secret)).to_have_count(0)
    page.get_by_role("button", name="Revoke token etl laptop of nightly-etl").click()
    expect(page.get_by_role("status")).to_contain_text("Token revoked")
    assert _api(floe, "GET", "/user/orgs", token=secret).status_code == 401
    admin.shot(shots, "admin-tokens")

    # Buckets, never with secrets.
    page.get_by_role("link", name="Buckets").click()
    expect(page.get_by_role("cell", name=re.compile("^default"))).to_be_visible()
    admin.shot(shots, "admin-buckets")
    admin.assert_quiet()
    context.close()
