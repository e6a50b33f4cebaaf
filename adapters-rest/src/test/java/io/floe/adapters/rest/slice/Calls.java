package io.floe.adapters.rest.slice;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;

/**
 * What the use cases behind a route slice were asked, in order: how a slice test proves that a
 * refused request reached no use case at all. Fakes record themselves here; {@link #untouched}
 * gives a use case the test does not expect to be called, which records the call and fails it.
 */
public final class Calls {
  private final List<String> calls = new ArrayList<>();

  /** Records that {@code useCase} was asked {@code method}. */
  public synchronized void record(String useCase, String method) {
    calls.add(useCase + "." + method);
  }

  public synchronized List<String> all() {
    return List.copyOf(calls);
  }

  public synchronized void clear() {
    calls.clear();
  }

  /**
   * A use case this slice does not serve: any call to it is recorded and answered with an error
   * (so that a route that reaches it shows up as a 500 and in {@link #all}).
   */
  public <T> T untouched(Class<T> useCase) {
    Object proxy = Proxy.newProxyInstance(useCase.getClassLoader(), new Class<?>[] {useCase},
        (self, method, args) -> switch (method.getName()) {
          case "toString" -> "untouched " + useCase.getSimpleName();
          case "hashCode" -> System.identityHashCode(self);
          case "equals" -> self == args[0];
          default -> {
            record(useCase.getSimpleName(), method.getName());
            throw new AssertionError(useCase.getSimpleName() + "." + method.getName()
                + " was not expected to be called");
          }
        });
    return useCase.cast(proxy);
  }
}
