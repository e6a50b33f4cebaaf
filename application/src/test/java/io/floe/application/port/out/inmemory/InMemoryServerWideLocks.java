package io.floe.application.port.out.inmemory;

import io.floe.application.port.out.ServerWideLocks;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Server-wide locks within one JVM, for application tests. {@code runExclusively} waits on this
 * object's monitor until the lock is free, as PostgreSQL's advisory lock waits.
 */
public final class InMemoryServerWideLocks implements ServerWideLocks {
  private final Set<String> held = new HashSet<>();

  @Override
  public <T> T runExclusively(String name, Supplier<T> work) {
    synchronized (this) {
      while (!held.add(name)) {
        try {
          wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted waiting for the lock " + name, e);
        }
      }
    }
    try {
      return work.get();
    } finally {
      release(name);
    }
  }

  @Override
  public <T> Optional<T> runIfFree(String name, Supplier<T> work) {
    synchronized (this) {
      if (!held.add(name)) {
        return Optional.empty();
      }
    }
    try {
      return Optional.of(work.get());
    } finally {
      release(name);
    }
  }

  /** Takes {@code name} as another server would, until {@link #release}. */
  public synchronized void holdElsewhere(String name) {
    held.add(name);
  }

  public synchronized void release(String name) {
    held.remove(name);
    notifyAll();
  }
}
