package io.floe.application.port.out.inmemory;

import io.floe.application.port.out.ServerWideLocks;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/** Server-wide locks within one JVM, for application tests: {@code runIfFree} only. */
public final class InMemoryServerWideLocks implements ServerWideLocks {
  private final Set<String> held = ConcurrentHashMap.newKeySet();

  @Override
  public <T> T runExclusively(String name, Supplier<T> work) {
    throw new UnsupportedOperationException("waiting for a lock is not faked");
  }

  @Override
  public <T> Optional<T> runIfFree(String name, Supplier<T> work) {
    if (!held.add(name)) {
      return Optional.empty();
    }
    try {
      return Optional.of(work.get());
    } finally {
      held.remove(name);
    }
  }

  /** Takes {@code name} as another server would, until {@link #release}. */
  public void holdElsewhere(String name) {
    held.add(name);
  }

  public void release(String name) {
    held.remove(name);
  }
}
