package io.floe.application.service;

import io.floe.application.port.in.ReadinessUseCase;
import io.floe.application.port.out.DatabaseHealth;

/** Ready when the catalog database answers. */
public final class ReadinessService implements ReadinessUseCase {
  private final DatabaseHealth database;

  public ReadinessService(DatabaseHealth database) {
    this.database = database;
  }

  @Override
  public boolean isReady() {
    return database.isReachable();
  }
}
