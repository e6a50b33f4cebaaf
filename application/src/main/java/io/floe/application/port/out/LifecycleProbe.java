package io.floe.application.port.out;

/**
 * Named points between the steps of a multi-step change (a namespace create, a cleanup). In
 * production it does nothing; tests use it to stop a change between two steps, as a crash would,
 * and show that the next start repairs or completes what was left.
 */
@FunctionalInterface
public interface LifecycleProbe {
  LifecycleProbe NONE = step -> { };

  void reached(String step);
}
