package io.floe.application.service.maintenance;

import io.floe.application.port.out.MaintenanceExecutor;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The executors a server has, by the kind a policy names. Composition registers one per kind it
 * can run (a kind it cannot run gets an {@link MaintenanceExecutor#unavailable} one, so its jobs
 * fail saying why); the scheduler only looks a job's kind up here, so which kinds exist and what
 * runs them is decided where the server is wired, never by a branch in the scheduler.
 */
public final class MaintenanceExecutors {
  private final Map<String, MaintenanceExecutor> byKind;

  private MaintenanceExecutors(Map<String, MaintenanceExecutor> byKind) {
    this.byKind = Map.copyOf(byKind);
  }

  /** The registry of {@code executors}; two of one kind are refused, as only one would run. */
  public static MaintenanceExecutors of(MaintenanceExecutor... executors) {
    return of(List.of(executors));
  }

  public static MaintenanceExecutors of(List<MaintenanceExecutor> executors) {
    Map<String, MaintenanceExecutor> byKind = new LinkedHashMap<>();
    for (MaintenanceExecutor executor : executors) {
      if (byKind.putIfAbsent(executor.kind(), executor) != null) {
        throw new IllegalArgumentException("two maintenance executors of kind "
            + executor.kind());
      }
    }
    return new MaintenanceExecutors(byKind);
  }

  /**
   * The executor of {@code kind}; for a kind none was registered for, one whose every attempt
   * fails saying so, so that the job is retried and ends failed like any failing job.
   */
  public MaintenanceExecutor forKind(String kind) {
    MaintenanceExecutor executor = byKind.get(kind);
    return executor != null ? executor : MaintenanceExecutor.unavailable(kind,
        "this server runs no maintenance executor of kind " + kind);
  }
}
