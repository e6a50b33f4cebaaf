package io.floe.bootstrap;

import io.floe.adapters.persistence.DatabaseSettings;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/** Where a server keeps its data: the data directory and the catalog's database. */
final class DataOptions {
  @Option(names = "--data-dir", defaultValue = "${env:FLOE_DATA_DIR:-./floe-data}",
      paramLabel = "DIR",
      description = "Where Floe keeps its embedded database, local buckets, admin token and "
          + "secret key (env FLOE_DATA_DIR; default: ${DEFAULT-VALUE}).")
  Path dataDir;

  @Option(names = "--database-url", defaultValue = "${env:FLOE_DATABASE_URL}", paramLabel = "URL",
      description = "JDBC URL of an external PostgreSQL, e.g. jdbc:postgresql://db:5432/floe "
          + "(env FLOE_DATABASE_URL; default: the embedded PostgreSQL).")
  String databaseUrl;

  @Option(names = "--database-user", defaultValue = "${env:FLOE_DATABASE_USER}",
      paramLabel = "USER", description = "User for --database-url (env FLOE_DATABASE_USER).")
  String databaseUser;

  @Option(names = "--database-password", defaultValue = "${env:FLOE_DATABASE_PASSWORD}",
      paramLabel = "PASSWORD",
      description = "Password for --database-url (env FLOE_DATABASE_PASSWORD).")
  String databasePassword;

  /** The external database, if one is configured. */
  Optional<DatabaseSettings> database() {
    return Optional.ofNullable(databaseUrl)
        .filter(url -> !url.isBlank())
        .map(url -> new DatabaseSettings(url, databaseUser, databasePassword));
  }
}
