package io.floe.application.port.out;

/** Whether the catalog database answers. */
public interface DatabaseHealth {
  boolean isReachable();
}
