package io.floe.adapters.persistence;

import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The store contract on an external PostgreSQL server, named by {@code floe.test.database.url}
 * (the CI script installs and starts one). Without it this class is skipped, visibly.
 */
@EnabledIfSystemProperty(named = TestDatabases.EXTERNAL_URL, matches = ".+")
class ExternalPostgresStoreTest extends CatalogStoreContract {
  ExternalPostgresStoreTest() {
    super(TestDatabases.externalServer());
  }
}
