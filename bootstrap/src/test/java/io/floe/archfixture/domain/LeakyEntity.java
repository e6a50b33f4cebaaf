package io.floe.archfixture.domain;

import io.floe.archfixture.adapters.storage.DiskStore;

/** Breaks the domain rule on purpose: a domain class reaching into an adapter. */
public class LeakyEntity {
  public int size(DiskStore store) {
    return store.count();
  }
}
