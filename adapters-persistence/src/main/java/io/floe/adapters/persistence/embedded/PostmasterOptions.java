package io.floe.adapters.persistence.embedded;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The settings the embedded PostgreSQL runs with, given on its command line so that they win over
 * anything in {@code postgresql.conf} or {@code postgresql.auto.conf}.
 */
final class PostmasterOptions {
  private PostmasterOptions() {}

  static Map<String, String> settings(int port) {
    Map<String, String> settings = new LinkedHashMap<>();
    // Reachable from this host only, by password (see ClusterAccess), and by no Unix socket: a
    // socket path inside a deep data directory can exceed the platform's limit of ~100 bytes.
    settings.put("listen_addresses", "127.0.0.1");
    settings.put("port", Integer.toString(port));
    settings.put("unix_socket_directories", "");
    settings.put("password_encryption", "scram-sha-256");
    // Durable: a commit PostgreSQL acknowledged is on disk, and a crash in the middle of a page
    // write is repaired from the full page image in the WAL.
    settings.put("fsync", "on");
    settings.put("synchronous_commit", "on");
    settings.put("full_page_writes", "on");
    settings.put("timezone", "UTC");
    // A week of logs in <cluster>/log, one file a weekday, each overwritten a week later.
    settings.put("logging_collector", "on");
    settings.put("log_directory", "log");
    settings.put("log_filename", "postgresql-%a.log");
    settings.put("log_truncate_on_rotation", "on");
    settings.put("log_rotation_age", "1d");
    settings.put("log_rotation_size", "0");
    return settings;
  }

  /** {@link #settings} as {@code postgres} arguments. */
  static List<String> arguments(int port) {
    List<String> arguments = new ArrayList<>();
    settings(port).forEach((name, value) -> {
      arguments.add("-c");
      arguments.add(name + "=" + value);
    });
    return arguments;
  }
}
