package io.floe.archfixture.application.port.in;

/** The fixture's in-port. */
public interface PlaceOrderUseCase {
  /** A result defined in the in-port, where out-ports cannot share it without breaking a rule. */
  record Order(String id) {}

  Order place(String item);
}
