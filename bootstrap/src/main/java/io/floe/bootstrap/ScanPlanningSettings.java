package io.floe.bootstrap;

import io.floe.application.service.table.planning.ScanPlanningLimits;
import java.time.Duration;
import org.apache.iceberg.rest.RESTCatalogProperties.ScanPlanningMode;

/**
 * Server-side scan planning: where the operator wants engines to plan scans of tables that do
 * not say ({@code client}, Iceberg's default, or {@code server}), how many file scan tasks one
 * answer holds at most, how many manifests all plans together read at once, and how long a plan
 * id or plan task stays valid.
 */
public record ScanPlanningSettings(ScanPlanningMode mode, int tasksPerPage, int manifestsAtOnce,
    Duration tokenLifetime) {
  public static final ScanPlanningSettings DEFAULTS = new ScanPlanningSettings(
      ScanPlanningMode.CLIENT, ScanPlanningLimits.DEFAULT_TASKS_PER_PAGE, 4, Duration.ofHours(1));

  public ScanPlanningSettings {
    if (mode == null) {
      throw new IllegalArgumentException("the scan planning mode is required");
    }
    if (tasksPerPage < 1 || manifestsAtOnce < 1) {
      throw new IllegalArgumentException(
          "scan planning needs at least one task per page and one manifest read at once");
    }
    if (tokenLifetime.isNegative() || tokenLifetime.isZero()) {
      throw new IllegalArgumentException("the lifetime of plan tasks must be positive");
    }
  }

  public ScanPlanningSettings withMode(ScanPlanningMode newMode) {
    return new ScanPlanningSettings(newMode, tasksPerPage, manifestsAtOnce, tokenLifetime);
  }

  public ScanPlanningSettings withTasksPerPage(int tasks) {
    return new ScanPlanningSettings(mode, tasks, manifestsAtOnce, tokenLifetime);
  }
}
