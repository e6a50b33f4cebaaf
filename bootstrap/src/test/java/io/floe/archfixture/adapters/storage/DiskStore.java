package io.floe.archfixture.adapters.storage;

/** A stand-in adapter the fixture's other classes wrongly depend on. */
public class DiskStore {
  public int count() {
    return 0;
  }
}
