package io.floe.archfixture.adapters.rest;

import io.floe.archfixture.adapters.storage.DiskStore;

/** Breaks the adapter rule on purpose: one adapter calling another directly. */
public class ChattyController {
  public int handle() {
    return new DiskStore().count();
  }
}
