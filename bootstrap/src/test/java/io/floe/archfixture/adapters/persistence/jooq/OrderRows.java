package io.floe.archfixture.adapters.persistence.jooq;

import io.floe.archfixture.adapters.persistence.cache.OrderCache;

/** Breaks the jooq rule on purpose: an SQL adapter that knows the cache in front of it. */
public class OrderRows {
  public int count() {
    return new OrderCache().size();
  }
}
