package io.floe.adapters.persistence.jooq;

import io.floe.adapters.persistence.TestDatabases;

/** Secrets at rest on the embedded PostgreSQL Floe runs by default. */
class EmbeddedPostgresSecretsTest extends SecretsAtRestContract {
  EmbeddedPostgresSecretsTest() {
    super(TestDatabases.embeddedServer());
  }
}
