package io.floe.archfixture.adapters.messaging;

import io.floe.archfixture.application.port.in.PlaceOrderUseCase;

/** Breaks the rule that outbound messaging adapters are driven: it calls a use case. */
public class ReplyingSender {
  private final PlaceOrderUseCase orders;

  public ReplyingSender(PlaceOrderUseCase orders) {
    this.orders = orders;
  }

  public Object orders() {
    return orders;
  }
}
