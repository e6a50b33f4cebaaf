package io.floe.application.iceberg.replay;

import org.apache.iceberg.io.FileIO;

/**
 * The table a change is replayed on: its name (for messages), the FileIO that reads the client's
 * manifests and writes the server's, and the rule that every file the server reads for the
 * client lies inside the table.
 */
public record ReplayTarget(String table, FileIO io, LocationGuard guard) {

  /** Refuses a location outside the table (the server reads these files with its own rights). */
  @FunctionalInterface
  public interface LocationGuard {
    void requireWithin(String what, String location);
  }
}
