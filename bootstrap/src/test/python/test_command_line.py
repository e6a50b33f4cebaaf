"""The floe launcher script at the repository's root: 'serve' goes to the server jar, every other
command to the small client jar (with its class-data archive), and both jars answer the same."""

import os
import subprocess

from conftest import JAR, REPO_ROOT

LAUNCHER = REPO_ROOT / "floe"


def floe_cli(*args, floe=None):
    env = dict(os.environ, FLOE_HOME=str(JAR.parent))
    if floe is not None:
        env.update(FLOE_URL=f"http://127.0.0.1:{floe.port}", FLOE_TOKEN=floe.token,
                   FLOE_ORG=floe.warehouse)
    return subprocess.run([str(LAUNCHER), *args], env=env, capture_output=True, text=True,
                          timeout=120)


def test_the_client_jar_and_its_archive_were_built():
    assert (JAR.parent / "floe-cli.jar").is_file()
    assert (JAR.parent / "floe-cli.jsa").is_file()
    # A fraction of the server jar: picocli, Jackson and the client commands.
    assert (JAR.parent / "floe-cli.jar").stat().st_size * 20 < JAR.stat().st_size


def test_version_names_the_build():
    done = floe_cli("--version")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("floe ") and "development build" not in lines[0]
    assert lines[1].startswith("commit ") and lines[2].startswith("built ")
    server = subprocess.run(["java", "-jar", str(JAR), "--version"], capture_output=True,
                            text=True, timeout=120)
    assert server.stdout == done.stdout


def test_client_commands_run_from_the_client_jar_and_answer_as_the_server_jar(floe):
    done = floe_cli("orgs", "list", "-o", "json", floe=floe)
    assert done.returncode == 0, done.stderr
    assert '"my-org"' in done.stdout
    env = dict(os.environ, FLOE_URL=f"http://127.0.0.1:{floe.port}", FLOE_TOKEN=floe.token)
    server = subprocess.run(["java", "-jar", str(JAR), "orgs", "list", "-o", "json"], env=env,
                            capture_output=True, text=True, timeout=120)
    assert server.returncode == 0 and server.stdout == done.stdout


def test_serve_goes_to_the_server_jar():
    listed = floe_cli("--help")
    assert listed.returncode == 0 and "serve" in listed.stdout
    served = floe_cli("serve", "--help")
    assert served.returncode == 0, served.stderr
    assert "--data-dir" in served.stdout and "--port" in served.stdout
    # The client jar alone says where the server is.
    alone = subprocess.run(["java", "-jar", str(JAR.parent / "floe-cli.jar"), "serve"],
                           capture_output=True, text=True, timeout=120)
    assert alone.returncode != 0 and "floe.jar" in alone.stderr
