package io.floe.application.port.out;

import java.util.function.Supplier;

/**
 * Runs work in one database transaction: every store call made by {@code work} on this thread
 * commits together or not at all. Nested calls join the outer transaction.
 */
public interface UnitOfWork {
  <T> T inTransaction(Supplier<T> work);

  default void inTransaction(Runnable work) {
    inTransaction(() -> {
      work.run();
      return null;
    });
  }
}
