package io.floe.archfixture.application.service;

import io.floe.archfixture.application.port.in.PlaceOrderUseCase;
import io.floe.archfixture.application.port.out.MetadataPointers;

/** Breaks the committer rule on purpose: a service that moves pointers itself. */
public class PlaceOrderService implements PlaceOrderUseCase {
  private final MetadataPointers pointers;

  public PlaceOrderService(MetadataPointers pointers) {
    this.pointers = pointers;
  }

  @Override
  public Order place(String item) {
    pointers.swap("a", "b");
    return new Order(item);
  }
}
