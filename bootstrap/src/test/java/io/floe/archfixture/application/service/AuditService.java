package io.floe.archfixture.application.service;

import io.floe.archfixture.adapters.storage.DiskStore;

/** Breaks the layering rule on purpose: a use case that reaches into an adapter. */
public class AuditService {
  public int entries() {
    return new DiskStore().count();
  }
}
