package io.floe.archfixture.adapters.rest;

import io.floe.archfixture.application.service.PlaceOrderService;

/** Breaks the driving rule on purpose: an adapter that calls a service, not its in-port. */
public class OrderController {
  private final PlaceOrderService service;

  public OrderController(PlaceOrderService service) {
    this.service = service;
  }

  public String handle() {
    return service.place("x").id();
  }
}
