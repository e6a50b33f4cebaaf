package io.floe.archfixture.adapters.persistence;

import io.floe.archfixture.adapters.persistence.jooq.OrderRows;

/** Breaks the persistence root rule on purpose: shared settings that know an adapter. */
public class ConnectionSettings {
  public int rows(OrderRows rows) {
    return rows.count();
  }
}
