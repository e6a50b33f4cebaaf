package io.floe.application.port.in;

/** Whether the server can serve requests: its catalog database answers. */
public interface ReadinessUseCase {
  boolean isReady();
}
