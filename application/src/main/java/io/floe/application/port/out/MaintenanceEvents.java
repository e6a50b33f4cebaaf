package io.floe.application.port.out;

import io.floe.application.model.MaintenanceJob;

/** Hears how table maintenance runs fare: what the maintenance metrics count. */
public interface MaintenanceEvents {
  MaintenanceEvents NONE = new MaintenanceEvents() {
    @Override
    public void ran() {}

    @Override
    public void failed() {}
  };

  /** A maintenance run (not a dry run) finished; some steps may have given up. */
  void ran();

  /** A maintenance run failed with an error. */
  void failed();

  /** A scheduled job ended an attempt as {@code state}: pending again after a failure, or done. */
  default void jobEnded(MaintenanceJob.State state) {}
}
