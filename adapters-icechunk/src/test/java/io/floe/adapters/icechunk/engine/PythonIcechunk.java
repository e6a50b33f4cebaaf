package io.floe.adapters.icechunk.engine;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code src/test/python/icechunk_interop.py} with the Python that has icechunk 2.3: system
 * property {@code floe.python}, else {@code <repo root>/.venv/bin/python}. A missing or broken
 * Python fails the test; only {@code -Dfloe.skipPythonInterop=true} skips it.
 */
public final class PythonIcechunk {
  public static final ObjectMapper JSON = new ObjectMapper();
  private static final long TIMEOUT_MINUTES = 5;

  private PythonIcechunk() {}

  public static boolean skipRequested() {
    return Boolean.getBoolean("floe.skipPythonInterop");
  }

  public static Path repoRoot() {
    Path p = Path.of(System.getProperty("user.dir")).toAbsolutePath();
    for (Path q = p; q != null; q = q.getParent()) {
      if (Files.isDirectory(q.resolve(".ci"))) {
        return q;
      }
    }
    return p.getParent() == null ? p : p.getParent();
  }

  public static Path python() {
    String configured = System.getProperty("floe.python");
    if (configured != null && !configured.isBlank()) {
      return Path.of(configured);
    }
    return repoRoot().resolve(".venv/bin/python");
  }

  public static Path script() {
    return script("icechunk_interop.py");
  }

  public static Path script(String name) {
    Path local = Path.of(System.getProperty("user.dir"), "src/test/python", name);
    return Files.exists(local) ? local
        : repoRoot().resolve("adapters-icechunk/src/test/python").resolve(name);
  }

  /** Runs another script of src/test/python and parses the JSON it prints. */
  public static JsonNode runScript(String name, String... args) {
    List<String> command = new ArrayList<>();
    command.add(python().toString());
    command.add(script(name).toString());
    command.addAll(List.of(args));
    try {
      return JSON.readTree(runRaw(command));
    } catch (IOException e) {
      throw new AssertionError(name + " " + String.join(" ", args) + " printed no JSON", e);
    }
  }

  /** Fails (never skips) unless Python with icechunk 2.3.x and zarr is usable. */
  public static void requireAvailable() {
    Path python = python();
    if (!Files.isExecutable(python)) {
      fail("Python interop tests need a Python with icechunk==2.3.0 and zarr at " + python
          + " (set -Dfloe.python=..., or -Dfloe.skipPythonInterop=true to skip them)");
    }
    String version = runRaw(List.of(python.toString(), "-c",
        "import icechunk, zarr; print(icechunk.__version__)")).strip();
    if (!version.startsWith("2.3.")) {
      fail(python + " has icechunk " + version + "; the interop tests need icechunk 2.3.x");
    }
  }

  public static JsonNode run(String... args) {
    List<String> command = new ArrayList<>();
    command.add(python().toString());
    command.add(script().toString());
    command.addAll(List.of(args));
    try {
      return JSON.readTree(runRaw(command));
    } catch (IOException e) {
      throw new AssertionError("python " + String.join(" ", args) + " printed no JSON", e);
    }
  }

  /** Starts the script without waiting; the caller reads its stdout lines. */
  public static Process start(String... args) {
    List<String> command = new ArrayList<>();
    command.add(python().toString());
    command.add(script().toString());
    command.addAll(List.of(args));
    try {
      return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    } catch (IOException e) {
      throw new AssertionError("cannot run " + command + ": " + e.getMessage(), e);
    }
  }

  private static String runRaw(List<String> command) {
    try {
      Path err = Files.createTempFile("icechunk-py", ".err");
      Process p = new ProcessBuilder(command).redirectError(err.toFile()).start();
      p.getOutputStream().close();
      byte[] out = p.getInputStream().readAllBytes();
      if (!p.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        fail("python did not finish in " + TIMEOUT_MINUTES + " minutes: " + command);
      }
      String stderr = Files.readString(err);
      Files.deleteIfExists(err);
      if (p.exitValue() != 0) {
        fail("python exited " + p.exitValue() + ": " + command + "\n" + tail(stderr));
      }
      return new String(out, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new AssertionError("cannot run " + command + ": " + e.getMessage()
          + " (set -Dfloe.python or -Dfloe.skipPythonInterop=true)", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  private static String tail(String s) {
    return s.length() <= 4000 ? s : s.substring(s.length() - 4000);
  }
}
