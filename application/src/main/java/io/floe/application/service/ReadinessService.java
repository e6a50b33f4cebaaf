package io.floe.application.service;

import io.floe.application.health.Workers;
import io.floe.application.model.Readiness;
import io.floe.application.model.WorkerOutage;
import io.floe.application.port.in.ReadinessUseCase;
import io.floe.application.port.out.DatabaseHealth;
import java.util.ArrayList;
import java.util.List;

/** Ready when the catalog database answers and no background worker is down. */
public final class ReadinessService implements ReadinessUseCase {
  private final DatabaseHealth database;
  private final Workers workers;

  public ReadinessService(DatabaseHealth database, Workers workers) {
    this.database = database;
    this.workers = workers;
  }

  @Override
  public Readiness readiness() {
    List<String> problems = new ArrayList<>();
    workersDown().forEach(down -> problems.add("background worker " + down.worker()
        + " is down since " + down.since() + "; it runs again at " + down.retryAt()));
    if (!database.isReachable()) {
      problems.add("the catalog database does not answer");
    }
    return new Readiness(problems);
  }

  @Override
  public List<WorkerOutage> workersDown() {
    return workers.down();
  }
}
