package io.floe.adapters.persistence.jooq;

import io.floe.adapters.persistence.TestDatabases;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/** Secrets at rest on an external PostgreSQL server, named by {@code floe.test.database.url}. */
@EnabledIfSystemProperty(named = TestDatabases.EXTERNAL_URL, matches = ".+")
class ExternalPostgresSecretsTest extends SecretsAtRestContract {
  ExternalPostgresSecretsTest() {
    super(TestDatabases.externalServer());
  }
}
