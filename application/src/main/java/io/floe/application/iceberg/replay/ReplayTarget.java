package io.floe.application.iceberg.replay;

import org.apache.iceberg.io.FileIO;

/**
 * The table a change is replayed on: its name (for messages), the FileIO that reads the client's
 * manifests and writes the server's (confined to the table: {@code MetadataFiles#tableIo}, so a
 * manifest list naming another table's manifest is refused however it is reached), and the rule
 * that every file the server reads for the client lies inside the table, checked first to name
 * the field that broke it.
 */
public record ReplayTarget(String table, FileIO io, LocationGuard guard) {

  /** Refuses a location outside the table (the server reads these files with its own rights). */
  @FunctionalInterface
  public interface LocationGuard {
    void requireWithin(String what, String location);
  }
}
