package io.floe.application.port.out.contract;

import org.junit.jupiter.api.BeforeEach;

/**
 * The base of every port's contract: the backend under test, and an org of its own per test.
 * Backends run the contracts through {@link PersistenceContracts}.
 */
public abstract class PortContract {
  /** The org this test works in, with its default bucket. */
  protected OrgFixture fixture;

  /** The backend under test; the same for every test of a class. */
  protected abstract PersistencePorts ports();

  @BeforeEach
  void newOrg() {
    fixture = new OrgFixture(ports());
  }
}
