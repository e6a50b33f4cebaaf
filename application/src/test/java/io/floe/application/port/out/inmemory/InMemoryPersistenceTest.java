package io.floe.application.port.out.inmemory;

import io.floe.application.port.out.contract.PersistenceContracts;
import io.floe.application.port.out.contract.PersistencePorts;

/** Every persistence port's contract, on the in-memory fakes. */
class InMemoryPersistenceTest extends PersistenceContracts {
  @Override
  protected PersistencePorts open() {
    return new InMemoryPersistence();
  }
}
