package io.floe.archfixture.application.port.out;

import io.floe.archfixture.application.port.in.PlaceOrderUseCase;

/** Breaks the port rule on purpose: an out-port that imports an in-port. */
public interface SaveOrderPort {
  void save(PlaceOrderUseCase.Order order);
}
