package io.floe.application.port.out;

import java.util.Optional;
import java.util.function.Supplier;

/**
 * Locks that every Floe server sharing the catalog database respects: for work that must not run
 * on two servers at once. A lock is released however its holder ends, a crash included.
 */
public interface ServerWideLocks {
  /** Runs {@code work} holding the lock {@code name}, waiting for whoever holds it first. */
  <T> T runExclusively(String name, Supplier<T> work);

  /** Runs {@code work} holding the lock {@code name} if nobody holds it; empty if somebody does. */
  <T> Optional<T> runIfFree(String name, Supplier<T> work);
}
