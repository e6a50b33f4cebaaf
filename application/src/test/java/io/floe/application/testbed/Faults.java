package io.floe.application.testbed;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Ports that fail on purpose: a decorator that throws on the first calls of one method and
 * delegates everything else, so a test can stop a multi-step change at that call.
 */
public final class Faults {
  private Faults() {}

  /** {@code port} whose first call of {@code method} throws {@code failure}. */
  public static <T> T failingOnce(Class<T> type, T port, String method, RuntimeException failure) {
    return failing(type, port, method, 1, failure);
  }

  /** {@code port} whose first {@code times} calls of {@code method} throw {@code failure}. */
  public static <T> T failing(Class<T> type, T port, String method, int times,
      RuntimeException failure) {
    AtomicInteger left = new AtomicInteger(times);
    Object proxy = Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
        (self, called, args) -> {
          if (called.getName().equals(method) && left.getAndDecrement() > 0) {
            throw failure;
          }
          try {
            return called.invoke(port, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
    return type.cast(proxy);
  }
}
