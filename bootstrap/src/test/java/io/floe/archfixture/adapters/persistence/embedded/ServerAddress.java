package io.floe.archfixture.adapters.persistence.embedded;

/** Where the fixture's embedded server listens. */
public class ServerAddress {
  public int port() {
    return 5432;
  }
}
