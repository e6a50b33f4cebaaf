package io.floe.bootstrap;

import io.floe.adapters.storage.spark.SparkSubmitMaintenance;
import java.time.Duration;
import java.util.Optional;

/**
 * How the server's maintenance scheduler runs: a tick every {@code interval} (read the change
 * feed, plan, run what is due), at most {@code concurrency} jobs at once on this server; a
 * concurrency of 0 runs no scheduler on this server (the others sharing its database still do).
 * {@code spark}: how the jobs of policies whose executor is Spark are submitted; without it such
 * jobs fail, saying that no Spark is configured.
 */
public record MaintenanceSettings(Duration interval, int concurrency,
    Optional<SparkSubmitMaintenance.Settings> spark) {
  public static final MaintenanceSettings DEFAULTS =
      new MaintenanceSettings(Duration.ofMinutes(1), 1);

  public MaintenanceSettings(Duration interval, int concurrency) {
    this(interval, concurrency, Optional.empty());
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
  }

  public boolean enabled() {
    return concurrency > 0;
  }
}
