package io.floe.adapters.persistence.jooq;

import io.floe.adapters.persistence.TestDatabases;
import io.floe.application.port.out.contract.PersistenceContracts;
import io.floe.application.port.out.contract.PersistencePorts;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Every persistence port's contract, on an external PostgreSQL server named by
 * {@code floe.test.database.url} (the CI script installs and starts one). Without it this class
 * is skipped, visibly.
 */
@EnabledIfSystemProperty(named = TestDatabases.EXTERNAL_URL, matches = ".+")
class ExternalPostgresStoreTest extends PersistenceContracts {
  @Override
  protected PersistencePorts open() {
    return JooqPersistencePorts.open(TestDatabases.externalServer());
  }
}
