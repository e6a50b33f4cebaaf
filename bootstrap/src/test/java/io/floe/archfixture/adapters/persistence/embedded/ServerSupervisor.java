package io.floe.archfixture.adapters.persistence.embedded;

import io.floe.archfixture.adapters.persistence.jooq.OrderRows;

/** Breaks the embedded rule on purpose: the server's supervisor reading the adapters' rows. */
public class ServerSupervisor {
  public int check(OrderRows rows) {
    return rows.count();
  }
}
