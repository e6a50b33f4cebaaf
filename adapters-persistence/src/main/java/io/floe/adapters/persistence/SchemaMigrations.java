package io.floe.adapters.persistence;

import java.util.Optional;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationVersion;

/** The catalog schema: Flyway's migrations in {@code db/migration}, applied in one place. */
public final class SchemaMigrations {
  private SchemaMigrations() {}

  /** Migrates the schema to the newest version. */
  public static void migrate(DataSource dataSource) {
    flyway(dataSource, MigrationVersion.LATEST).migrate();
  }

  /**
   * Migrates the schema up to {@code version} and no further: a copy of an older database needs
   * the schema that database had, and the newer migrations run on the copy afterwards.
   */
  public static void migrateTo(DataSource dataSource, String version) {
    flyway(dataSource, MigrationVersion.fromVersion(version)).migrate();
  }

  /** The version of the newest migration applied to the database, if any is. */
  public static Optional<String> appliedVersion(DataSource dataSource) {
    MigrationInfo current = flyway(dataSource, MigrationVersion.LATEST).info().current();
    return Optional.ofNullable(current).map(info -> info.getVersion().getVersion());
  }

  private static Flyway flyway(DataSource dataSource, MigrationVersion target) {
    return Flyway.configure()
        .dataSource(dataSource)
        .locations("classpath:db/migration")
        .target(target)
        .load();
  }
}
