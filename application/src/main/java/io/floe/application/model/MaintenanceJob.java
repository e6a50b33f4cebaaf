package io.floe.application.model;

import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * One job of the maintenance scheduler: the steps planned for a table and why, and how it went.
 * A pending job runs once due; a running one is leased to the replica that runs it, until its
 * lease expires; a failed attempt goes back to pending after a back-off, and a job that failed
 * {@code MAX_ATTEMPTS} times ends failed. {@code executor} is what runs it
 * ({@link MaintenancePolicy#IN_PROCESS} or {@link MaintenancePolicy#SPARK}), as the policy said
 * when the job was planned.
 */
public record MaintenanceJob(long id, UUID orgId, String namespace, String name,
    Set<Step> steps, String reason, State state, int attempts, Instant createdAt,
    Instant dueAt, Optional<String> leaseOwner, Optional<Instant> leaseExpiresAt,
    Optional<Instant> startedAt, Optional<Instant> finishedAt, Optional<String> outcome,
    Optional<String> lastError, String executor) {

  /** Where a job is. */
  public enum State {
    PENDING, RUNNING, SUCCEEDED, FAILED, SKIPPED;

    public String wire() {
      return name().toLowerCase(Locale.ROOT);
    }

    public static State ofWire(String wire) {
      return valueOf(wire.toUpperCase(Locale.ROOT));
    }
  }

  /** A step a job may run, in the order runs take them. */
  public enum Step {
    COMPACT("compact"), EXPIRE_SNAPSHOTS("expire_snapshots"),
    REWRITE_MANIFESTS("rewrite_manifests"), REMOVE_ORPHANS("remove_orphans");

    private final String wire;

    Step(String wire) {
      this.wire = wire;
    }

    public String wire() {
      return wire;
    }

    public static Step ofWire(String wire) {
      for (Step step : values()) {
        if (step.wire.equals(wire)) {
          return step;
        }
      }
      throw new IllegalArgumentException("not a maintenance step: " + wire);
    }
  }

  public MaintenanceJob {
    Objects.requireNonNull(orgId, "orgId");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    steps = Set.copyOf(steps);
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(dueAt, "dueAt");
    Objects.requireNonNull(leaseOwner, "leaseOwner");
    Objects.requireNonNull(leaseExpiresAt, "leaseExpiresAt");
    Objects.requireNonNull(startedAt, "startedAt");
    Objects.requireNonNull(finishedAt, "finishedAt");
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(lastError, "lastError");
    Objects.requireNonNull(executor, "executor");
  }

  /** The table's key: its name as the catalog compares it. */
  public String tableKey() {
    return MaintenanceTable.key(namespace, name);
  }
}
