package io.floe.adapters.persistence.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * Who may log in to the embedded PostgreSQL: only a client that knows the generated password of
 * its {@code postgres} role, kept in {@code postgres.password} (mode 600) beside the cluster, over
 * the loopback address, with SCRAM-SHA-256. Nothing is trusted: not TCP, and not a Unix socket
 * (the server opens none).
 *
 * <p>Clusters made before Floe set a password (their {@code pg_hba.conf} trusts every local
 * connection) are brought under these rules before their server starts: the password is set in
 * single-user mode, with no server listening, and {@code pg_hba.conf} is rewritten.
 */
final class ClusterAccess {
  static final String USER = "postgres";

  /** The whole {@code pg_hba.conf} of every cluster Floe runs. */
  static final String RULES = """
      # Written by Floe. The embedded PostgreSQL listens on the loopback address only (and on no
      # Unix socket); every connection logs in with the password in the file beside this data
      # directory (postgres.password), by SCRAM-SHA-256. Nothing else is accepted.
      host    all    all    127.0.0.1/32    scram-sha-256
      host    all    all    ::1/128         scram-sha-256
      """;

  private final Path passwordFile;
  private String password;
  private boolean passwordIsNew;

  ClusterAccess(Path passwordFile) {
    this.passwordFile = passwordFile;
  }

  /** The password, generated (and written, mode 600) on first use. */
  synchronized String password() {
    if (password == null) {
      try {
        if (Files.exists(passwordFile)) {
          password = Files.readString(passwordFile).strip();
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + passwordFile, e);
      }
      if (password == null || password.isEmpty()) {
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        password = HexFormat.of().formatHex(secret);
        Disk.writePrivately(passwordFile, password + "\n");
        passwordIsNew = true;
      }
    }
    return password;
  }

  /**
   * Makes a new cluster in {@code cluster}'s directory, which must be missing or empty: initdb
   * runs in a directory beside it that is renamed into place once whole, so an interrupted
   * initdb never leaves a half-made cluster where the next start would take it for a real one.
   */
  void initialize(PostgresCluster cluster, PostgresBinaries binaries) {
    password();
    Path staging = cluster.directory().resolveSibling(
        cluster.directory().getFileName() + ".initializing");
    Disk.deleteRecursively(staging);
    List<String> arguments = new ArrayList<>(List.of("-D", staging.toString(), "-U", USER,
        "--pwfile=" + passwordFile, "--auth=scram-sha-256", "--encoding=UTF8", "--locale=C"));
    if (binaries.majorVersion() >= 17) {
      // Code-point order and Unicode case mapping built into PostgreSQL: the same on every host,
      // and no index to rebuild when the operating system's collation data changes.
      arguments.addAll(List.of("--locale-provider=builtin", "--builtin-locale=C.UTF-8"));
    }
    Programs.run(binaries.command("initdb", arguments.toArray(String[]::new)), null);
    writeRules(staging);
    removeIfEmpty(cluster.directory());
    Disk.rename(staging, cluster.directory());
    passwordIsNew = false;
  }

  /**
   * Brings an existing cluster, whose server is not running, under the rules: sets the password
   * and rewrites {@code pg_hba.conf} unless both are already Floe's. Returns whether it changed
   * anything.
   */
  boolean secure(PostgresCluster cluster, PostgresBinaries binaries) {
    String secret = password();
    if (!passwordIsNew && hasRules(cluster)) {
      return false;
    }
    // Single-user mode reads the statement from standard input, so the password never appears
    // on a command line; an error must not quote the statement either.
    Programs.run(binaries.command("postgres", "--single", "-D", cluster.directory().toString(),
            "-c", "log_min_error_statement=panic", "-c", "password_encryption=scram-sha-256",
            "postgres"),
        "ALTER ROLE " + USER + " WITH PASSWORD '" + secret + "';\n");
    writeRules(cluster.directory());
    passwordIsNew = false;
    return true;
  }

  private static boolean hasRules(PostgresCluster cluster) {
    try {
      return Files.readString(cluster.accessRules()).equals(RULES);
    } catch (IOException e) {
      return false;
    }
  }

  private static void writeRules(Path directory) {
    Disk.writePrivately(directory.resolve("pg_hba.conf"), RULES);
  }

  private static void removeIfEmpty(Path directory) {
    try {
      if (Files.isDirectory(directory)) {
        try (var entries = Files.list(directory)) {
          if (entries.findAny().isPresent()) {
            throw new IllegalStateException(directory + " is not empty but holds no PostgreSQL "
                + "cluster (no PG_VERSION); move it away and start again");
          }
        }
        Files.delete(directory);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prepare " + directory, e);
    }
  }
}
