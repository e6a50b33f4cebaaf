package io.floe.application.port.out;

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
}
