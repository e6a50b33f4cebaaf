package io.floe.archfixture.adapters.persistence.cache;

import io.floe.archfixture.adapters.persistence.embedded.ServerAddress;

/** Breaks the cache rule on purpose: a cache that knows which server runs the database. */
public class OrderCache {
  public int size() {
    return new ServerAddress().port();
  }
}
