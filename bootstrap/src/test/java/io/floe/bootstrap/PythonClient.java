package io.floe.bootstrap;

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
 * Runs a script of {@code src/test/python} with the Python that has icechunk 2.3: system property
 * {@code floe.python}, else {@code .venv/bin/python} in the repository root. A missing Python
 * fails the test; only {@code -Dfloe.skipPythonInterop=true} skips it.
 */
final class PythonClient {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long TIMEOUT_MINUTES = 3;

  private PythonClient() {}

  static boolean skipRequested() {
    return Boolean.getBoolean("floe.skipPythonInterop");
  }

  /** Runs the script and parses the JSON it prints; any failure fails the test with its output. */
  static JsonNode run(String script, String... args) {
    Path python = python();
    if (!Files.isExecutable(python)) {
      fail("this test needs a Python with icechunk==2.3.0 and zarr at " + python
          + " (set -Dfloe.python=..., or -Dfloe.skipPythonInterop=true to skip it)");
    }
    List<String> command = new ArrayList<>(List.of(python.toString(),
        moduleDir().resolve("src/test/python").resolve(script).toString()));
    command.addAll(List.of(args));
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(false).start();
      process.getOutputStream().close();
      byte[] out = process.getInputStream().readAllBytes();
      byte[] err = process.getErrorStream().readAllBytes();
      if (!process.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES) || process.exitValue() != 0) {
        fail(String.join(" ", command) + " failed:\n" + new String(err, StandardCharsets.UTF_8));
      }
      return JSON.readTree(out);
    } catch (IOException e) {
      throw new AssertionError("could not run " + String.join(" ", command), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while running " + script, e);
    }
  }

  private static Path python() {
    String configured = System.getProperty("floe.python");
    if (configured != null && !configured.isBlank()) {
      return Path.of(configured);
    }
    return moduleDir().toAbsolutePath().getParent().resolve(".venv/bin/python");
  }

  /** Maven runs tests in the module directory. */
  private static Path moduleDir() {
    return Path.of(System.getProperty("user.dir"));
  }
}
