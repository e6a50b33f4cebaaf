package io.floe.archfixture.adapters.icechunk.engine;

import io.floe.archfixture.application.port.out.SaveOrderPort;

/** Breaks the engine's independence: the engine reaches into the application's ports. */
public final class LeakyEngine {
  private final SaveOrderPort orders;

  public LeakyEngine(SaveOrderPort orders) {
    this.orders = orders;
  }

  public SaveOrderPort orders() {
    return orders;
  }
}
