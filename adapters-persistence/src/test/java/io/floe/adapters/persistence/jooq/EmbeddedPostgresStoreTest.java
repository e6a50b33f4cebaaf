package io.floe.adapters.persistence.jooq;

import io.floe.adapters.persistence.TestDatabases;
import io.floe.application.port.out.contract.PersistenceContracts;
import io.floe.application.port.out.contract.PersistencePorts;

/** Every persistence port's contract, on the embedded PostgreSQL Floe runs by default. */
class EmbeddedPostgresStoreTest extends PersistenceContracts {
  @Override
  protected PersistencePorts open() {
    return JooqPersistencePorts.open(TestDatabases.embeddedServer());
  }
}
