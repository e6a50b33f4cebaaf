package io.floe.application.service.check;

/**
 * How many more things one page of a check may look at: what keeps each request of a check of a
 * large catalog short.
 */
final class Budget {
  private final int limit;
  private int spent;

  Budget(int limit) {
    this.limit = limit;
  }

  int remaining() {
    return limit - spent;
  }

  int spent() {
    return spent;
  }

  /** Spends {@code units}, at most what is left. */
  void spend(int units) {
    spent = Math.min(limit, spent + units);
  }
}
