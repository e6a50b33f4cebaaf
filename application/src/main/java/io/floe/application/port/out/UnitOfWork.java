package io.floe.application.port.out;

import java.util.function.Supplier;

/**
 * Runs work in one database transaction: every store call made by {@code work} on this thread
 * commits together or not at all. Nested calls join the outer transaction.
 *
 * <p>When the database cannot be reached, {@link #inTransaction} says whether anything was
 * written. It returns normally only if the transaction committed, even when the connection broke
 * while it committed and the answer had to be asked for again. It throws
 * {@link DatabaseUnavailableException} when the transaction certainly did not commit, and
 * {@link TransactionOutcomeUnknownException} only when the database stayed unreachable for as long
 * as the outcome was asked for.
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
