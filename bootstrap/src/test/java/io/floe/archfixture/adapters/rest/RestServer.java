package io.floe.archfixture.adapters.rest;

import io.floe.archfixture.adapters.rest.orders.OrderRoutes;

/** Assembles the fixture's route groups, so it depends on every one of them. */
public class RestServer {
  public static String requestId() {
    return "r-1";
  }

  public int start() {
    return new OrderRoutes().count();
  }
}
