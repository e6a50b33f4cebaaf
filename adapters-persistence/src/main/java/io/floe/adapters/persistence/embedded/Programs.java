package io.floe.adapters.persistence.embedded;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Runs a PostgreSQL program to its end, the way a shell would, and says why it failed. */
final class Programs {
  private static final long TIMEOUT_MINUTES = 10;

  private Programs() {}

  /**
   * Runs {@code command}, writes {@code input} (if any) to its standard input, and returns what it
   * printed. A non-zero exit is an exception quoting that output.
   */
  static String run(List<String> command, String input) {
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      CompletableFuture<byte[]> output = CompletableFuture.supplyAsync(() -> {
        try {
          return process.getInputStream().readAllBytes();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
      try (OutputStream stdin = process.getOutputStream()) {
        if (input != null) {
          stdin.write(input.getBytes(StandardCharsets.UTF_8));
        }
      }
      if (!process.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
        process.destroyForcibly();
        throw new IllegalStateException(name(command) + " did not finish in " + TIMEOUT_MINUTES
            + " minutes");
      }
      String printed = new String(output.join(), StandardCharsets.UTF_8);
      if (process.exitValue() != 0) {
        throw new IllegalStateException(name(command) + " failed (exit " + process.exitValue()
            + "): " + printed.strip());
      }
      return printed;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + name(command), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running " + name(command), e);
    }
  }

  private static String name(List<String> command) {
    return command.stream().filter(part -> part.contains("/")).findFirst()
        .map(path -> path.substring(path.lastIndexOf('/') + 1)).orElse(command.get(0));
  }
}
