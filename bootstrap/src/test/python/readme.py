"""The engine configurations of the README's "Connect your engine" section, as the engine tests
run them: each engine's code blocks, with the README's address and token swapped for those of the
server under test. A test that runs a block proves the README, not a copy of it."""

import pathlib
import re

README = pathlib.Path(__file__).resolve().parents[4] / "README.md"
SECTION = "## Connect your engine"

# What the README writes, and what each stands for in a test.
URI = "http://127.0.0.1:8181/iceberg"
TOKEN = "ema_..."
TOKEN_FILE = "floe-data/admin.token"


def _section() -> str:
    text = README.read_text()
    start = text.index(SECTION)
    end = text.find("\n## ", start + len(SECTION))
    return text[start:] if end < 0 else text[start:end]


def blocks(engine: str) -> list[str]:
    """The fenced code blocks under the README heading `### <engine>`, in order."""
    section = _section()
    heading = re.search(rf"^### {re.escape(engine)}\b.*$", section, re.MULTILINE)
    assert heading, f"README has no '### {engine}' under '{SECTION}'"
    following = section[heading.end():]
    next_heading = re.search(r"^### ", following, re.MULTILINE)
    body = following if next_heading is None else following[:next_heading.start()]
    found = re.findall(r"^```[a-z]*\n(.*?)^```$", body, re.MULTILINE | re.DOTALL)
    assert found, f"README's '### {engine}' has no code block"
    return found


def for_server(block: str, floe) -> str:
    """The block as it runs against `floe`: its catalog URI and admin token instead of the
    README's; everything else (warehouse, names, options) exactly as written."""
    return (block.replace(URI, floe.uri)
            .replace(TOKEN, floe.token)
            .replace(TOKEN_FILE, str(floe.data_dir / "admin.token")))


def run_python(block: str, floe, scope: dict | None = None) -> dict:
    """Runs a Python block against `floe` in `scope` (the names earlier blocks defined) and
    returns the scope with what this block defined."""
    scope = {} if scope is None else scope
    exec(compile(for_server(block, floe), str(README), "exec"), scope)
    return scope


def pyiceberg_catalog(floe):
    """PyIceberg's catalog, configured by the README."""
    return run_python(blocks("PyIceberg")[0], floe)["catalog"]


def duckdb_attached(floe):
    """A DuckDB connection with Floe attached as `floe`, configured by the README."""
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
    """Where `group:artifact:version` lies in the local Maven repository."""
    group, artifact, version = coordinate.split(":")
    return (pathlib.Path.home() / ".m2" / "repository" / group.replace(".", "/") / artifact
            / version / f"{artifact}-{version}.jar")
