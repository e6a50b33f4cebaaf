package io.floe.application.port.in;

import io.floe.application.model.Readiness;
import io.floe.application.model.WorkerOutage;
import java.util.List;

/**
 * Whether the server can serve requests: its catalog database answers and every background
 * worker it needs runs.
 */
public interface ReadinessUseCase {
  Readiness readiness();

  /**
   * The workers that are down now, without asking the database anything: while one is, a write
   * is refused at once (a 503 to retry after the outage), not left to fail midway.
   */
  List<WorkerOutage> workersDown();
}
