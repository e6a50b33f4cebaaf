package io.floe.adapters.persistence;

/** The store contract on the embedded PostgreSQL Floe runs by default. */
class EmbeddedPostgresStoreTest extends CatalogStoreContract {
  EmbeddedPostgresStoreTest() {
    super(TestDatabases.embeddedServer());
  }
}
