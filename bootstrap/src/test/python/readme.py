"""The documentation's code, as the tests run it: each engine's blocks of "Connect your engine"
(docs/engines.md) and the README's five-minute tour, with the documented address and token
swapped for those of the server under test. A test that runs a block proves the docs, not a copy
of them."""

import os
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[4]
README = ROOT / "README.md"
ENGINES = ROOT / "docs" / "engines.md"
TOUR = "## Five minutes with Floe"

# What the docs write, and what each stands for in a test.
URI = "http://127.0.0.1:8181/iceberg"
SERVER = "http://127.0.0.1:8181"
TOKEN = "ema_..."
TOKEN_FILE = "floe-data/admin.token"
FENCED = re.compile(r"^```([a-z]*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def _section(text: str, heading: str, where: pathlib.Path) -> str:
    """The text under `heading` up to the next heading of the same level."""
    level = heading.split(" ")[0]
    found = re.search(rf"^{re.escape(heading)}\b.*$", text, re.MULTILINE)
    assert found, f"{where.name} has no '{heading}'"
    following = text[found.end():]
    end = re.search(rf"^{level} ", following, re.MULTILINE)
    return following if end is None else following[:end.start()]


def blocks(engine: str) -> list[str]:
    """The fenced code blocks under the heading `## <engine>` of docs/engines.md, in order."""
    found = [code for _, code in FENCED.findall(_section(ENGINES.read_text(), f"## {engine}",
                                                         ENGINES))]
    assert found, f"{ENGINES.name}'s '## {engine}' has no code block"
    return found


def page_blocks(page: str, heading: str, language: str) -> list[str]:
    """The fenced blocks in `language` under `heading` (e.g. "## The arraylake client") of
    docs/`page`."""
    path = ROOT / "docs" / page
    found = [code for lang, code in FENCED.findall(_section(path.read_text(), heading, path))
             if lang == language]
    assert found, f"{page}'s '{heading}' has no {language} block"
    return found


def tour_blocks(language: str) -> list[str]:
    """The README tour's fenced blocks in `language`, in order."""
    found = [code for lang, code in FENCED.findall(_section(README.read_text(), TOUR, README))
             if lang == language]
    assert found, f"the README's tour has no {language} block"
    return found


def for_server(block: str, floe) -> str:
    """The block as it runs against `floe`: its catalog URI and admin token instead of the
    documented ones; everything else (warehouse, names, options) exactly as written."""
    return (block.replace(URI, floe.uri)
            .replace(SERVER, floe.uri.removesuffix("/iceberg"))
            .replace(TOKEN, floe.token)
            .replace(TOKEN_FILE, str(floe.data_dir / "admin.token")))


def run_python(block: str, floe, scope: dict | None = None) -> dict:
    """Runs a Python block against `floe` in `scope` (the names earlier blocks defined) and
    returns the scope with what this block defined."""
    scope = {} if scope is None else scope
    exec(compile(for_server(block, floe), str(ENGINES), "exec"), scope)
    return scope


def pyiceberg_catalog(floe):
    """PyIceberg's catalog, configured by the docs."""
    return run_python(blocks("PyIceberg")[0], floe)["catalog"]


def duckdb_attached(floe):
    """A DuckDB connection with Floe attached as `floe`, configured by the docs."""
    python, attach = blocks("DuckDB")[:2]
    con = run_python(python, floe)["con"]
    for statement in sql_statements(for_server(attach, floe)):
        con.execute(statement)
    return con


def sql_statements(block: str) -> list[str]:
    """The statements of a SQL block, one per `;`."""
    return [statement.strip() for statement in block.split(";") if statement.strip()]


def spark_submit_conf(block: str) -> dict[str, str]:
    """The `--packages` and `--conf` options of a `spark-sql` command line, as Spark conf."""
    command = block.replace("\\\n", " ")
    conf = {"spark.jars.packages": re.search(r"--packages\s+(\S+)", command).group(1)}
    for key, value in re.findall(r"--conf\s+([^=\s]+)=(\S+)", command):
        conf[key] = value
    return conf


def local_maven_jar(coordinate: str) -> pathlib.Path:
    """Where `group:artifact:version` lies in the local Maven repository (FLOE_MAVEN_REPOSITORY,
    else ~/.m2/repository)."""
    group, artifact, version = coordinate.split(":")
    repository = pathlib.Path(os.environ.get("FLOE_MAVEN_REPOSITORY",
                                             pathlib.Path.home() / ".m2" / "repository"))
    return (repository / group.replace(".", "/") / artifact / version
            / f"{artifact}-{version}.jar")
