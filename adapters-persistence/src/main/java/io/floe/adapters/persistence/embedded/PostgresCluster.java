package io.floe.adapters.persistence.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A PostgreSQL data directory, whether or not a server runs on it. */
record PostgresCluster(Path directory) {
  PostgresCluster {
    directory = directory.toAbsolutePath().normalize();
  }

  /** Whether {@code initdb} has made a cluster here. */
  boolean exists() {
    return Files.isRegularFile(directory.resolve("PG_VERSION"));
  }

  /** The major version of the PostgreSQL that made this cluster (PostgreSQL 10 and later). */
  int majorVersion() {
    try {
      return Integer.parseInt(Files.readString(directory.resolve("PG_VERSION")).strip());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the version of the cluster in " + directory, e);
    } catch (NumberFormatException e) {
      throw new IllegalStateException(directory + "/PG_VERSION is not a version", e);
    }
  }

  Path pidFile() {
    return directory.resolve("postmaster.pid");
  }

  Path accessRules() {
    return directory.resolve("pg_hba.conf");
  }

  Path logDirectory() {
    return directory.resolve("log");
  }

  @Override
  public String toString() {
    return directory.toString();
  }
}
