package io.floe.bootstrap;

import io.floe.adapters.storage.spark.SparkSubmitMaintenance;
import io.floe.application.service.maintenance.OrphanGraceFloor;
import java.time.Duration;
import java.util.Optional;

/**
 * How the server's maintenance scheduler runs: a tick every {@code interval} (read the change
 * feed, plan, run what is due), at most {@code concurrency} jobs at once on this server; a
 * concurrency of 0 runs no scheduler on this server (the others sharing its database still do).
 * {@code spark}: how the jobs of policies whose executor is Spark are submitted; without it such
 * jobs fail, saying that no Spark is configured. {@code orphanGraceFloor}: the operator's floor
 * for orphan removal's grace period, which can only raise {@link OrphanGraceFloor#MINIMUM}.
 */
public record MaintenanceSettings(Duration interval, int concurrency,
    Optional<SparkSubmitMaintenance.Settings> spark, Duration orphanGraceFloor) {
  public static final MaintenanceSettings DEFAULTS =
      new MaintenanceSettings(Duration.ofMinutes(1), 1);

  public MaintenanceSettings(Duration interval, int concurrency) {
    this(interval, concurrency, Optional.empty());
  }

  public MaintenanceSettings(Duration interval, int concurrency,
      Optional<SparkSubmitMaintenance.Settings> spark) {
    this(interval, concurrency, spark, OrphanGraceFloor.MINIMUM);
  }
  /** At most this many jobs at once: each one holds a table's files in flight. */
  public static final int MAX_CONCURRENCY = 64;

  public MaintenanceSettings {
    if (interval == null || interval.compareTo(Duration.ofSeconds(1)) < 0) {
      throw new IllegalArgumentException("the maintenance interval must be at least a second");
    }
    if (concurrency < 0 || concurrency > MAX_CONCURRENCY) {
      throw new IllegalArgumentException("the maintenance concurrency must be from 0 to "
          + MAX_CONCURRENCY);
    }
    java.util.Objects.requireNonNull(spark, "spark");
    if (orphanGraceFloor == null || orphanGraceFloor.compareTo(OrphanGraceFloor.MINIMUM) < 0) {
      throw new IllegalArgumentException("the orphan grace floor can be raised, not lowered: "
          + "it is at least " + OrphanGraceFloor.MINIMUM.toHours() + "h");
    }
  }

  /**
   * How long a maintenance job's token lasts: it outlasts the longest the job may run. The job
   * writes files with it, so orphan removal's floor outlasts it too.
   */
  public Duration jobTokenLifetime() {
    return spark.map(submit -> submit.timeout().plusMinutes(5)).orElse(Duration.ofMinutes(5));
  }

  public boolean enabled() {
    return concurrency > 0;
  }
}
