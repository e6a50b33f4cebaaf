package io.floe.adapters.storage.servers;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * The Python that tests run servers and helper scripts with: {@code -Dfloe.python}, else the
 * repository's {@code .venv}. A missing Python or package fails the test; only
 * {@code -Dfloe.skipPythonServers=true} skips it.
 */
public final class TestPython {
  private TestPython() {}

  public static boolean skipRequested() {
    return Boolean.getBoolean("floe.skipPythonServers");
  }

  /** Skips when asked to, else fails unless Python can import {@code modules}. */
  public static Path require(String modules) {
    Assumptions.assumeFalse(skipRequested(), "floe.skipPythonServers=true");
    Path python = python();
    if (!Files.isExecutable(python)) {
      fail("tests against Python servers need a Python at " + python + " with the packages in "
          + ".ci/python-requirements.txt (set -Dfloe.python=..., or -Dfloe.skipPythonServers=true "
          + "to skip them)");
    }
    Result check = run(List.of(python.toString(), "-c", "import " + modules), "");
    if (check.exitCode() != 0) {
      fail(python + " cannot import " + modules + " (pip install -r .ci/python-requirements.txt, "
          + "or -Dfloe.skipPythonServers=true):\n" + check.output());
    }
    return python;
  }

  /** Runs one of this module's scripts in {@code src/test/python} and returns its stdout. */
  public static String runScript(String script, String stdin, String modules) {
    Path python = require(modules);
    Result result = run(List.of(python.toString(), script(script).toString()), stdin);
    if (result.exitCode() != 0) {
      fail(script + " failed with " + result.exitCode() + ":\n" + result.output());
    }
    return result.output();
  }

  record Result(int exitCode, String output) {}

  static Result run(List<String> command, String stdin) {
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      process.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
      process.getOutputStream().close();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(120, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        fail("timed out: " + command);
      }
      return new Result(process.exitValue(), output);
    } catch (IOException e) {
      throw new AssertionError("could not run " + command, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  static Path python() {
    String configured = System.getProperty("floe.python");
    if (configured != null && !configured.isBlank()) {
      return Path.of(configured);
    }
    return repoRoot().resolve(".venv/bin/python");
  }

  static Path script(String name) {
    Path local = Path.of(System.getProperty("user.dir"), "src/test/python", name);
    return Files.exists(local) ? local
        : repoRoot().resolve("adapters-storage/src/test/python").resolve(name);
  }

  static List<String> command(Path python, String script, List<String> args) {
    List<String> command = new ArrayList<>(List.of(python.toString(), script(script).toString()));
    command.addAll(args);
    return command;
  }

  private static Path repoRoot() {
    Path start = Path.of(System.getProperty("user.dir")).toAbsolutePath();
    for (Path p = start; p != null; p = p.getParent()) {
      if (Files.isDirectory(p.resolve(".ci"))) {
        return p;
      }
    }
    return start;
  }
}
