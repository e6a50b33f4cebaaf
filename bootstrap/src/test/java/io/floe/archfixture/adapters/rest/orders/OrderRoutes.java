package io.floe.archfixture.adapters.rest.orders;

import io.floe.archfixture.adapters.rest.RestServer;

/**
 * Breaks the cycle rule on purpose: a route group that calls back into the package assembling it,
 * which depends on this one.
 */
public class OrderRoutes {
  public int count() {
    return RestServer.requestId().length();
  }
}
