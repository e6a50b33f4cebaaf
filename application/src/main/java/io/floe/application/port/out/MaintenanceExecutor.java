package io.floe.application.port.out;

import io.floe.application.model.MaintenanceJob;
import io.floe.application.model.MaintenancePolicy;
import io.floe.application.model.MaintenanceTable;
import io.floe.domain.Org;
import java.time.Instant;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

/**
 * What runs a scheduled maintenance job: one executor per {@link #kind} a policy may name
 * ({@link MaintenancePolicy#EXECUTORS}). The scheduler looks the job's executor up by the kind
 * recorded when the job was planned and hands it the job; it never asks which kind it holds, so
 * a new executor is a new adapter wired at composition, not a new branch in the scheduler.
 * {@link #run} returns once the job has ended, with what it did; any exception is a failed
 * attempt, which the scheduler retries or ends as the job's rules say.
 */
public interface MaintenanceExecutor {
  /**
   * A job, resolved when its attempt starts: its org, its namespace's and table's ids (what a
   * token scoped to the table names), the policy that applies now and the steps planned: of
   * those, only the ones the policy still turns on run (at least one does, else the job was
   * skipped before). {@code at} is the attempt's start, from which ages are measured.
   */
  record Job(MaintenanceJob job, Org org, UUID namespaceId, UUID tableId,
      MaintenancePolicy policy, Set<MaintenanceJob.Step> steps, Instant at) {
    public Job {
      Objects.requireNonNull(job, "job");
      Objects.requireNonNull(org, "org");
      Objects.requireNonNull(namespaceId, "namespaceId");
      Objects.requireNonNull(tableId, "tableId");
      Objects.requireNonNull(policy, "policy");
      steps = Set.copyOf(steps);
      Objects.requireNonNull(at, "at");
    }
  }

  /** What a job did: a line per step, and what it saw of the table at its end. */
  record Outcome(String outcome, MaintenanceTable.Observed observed) {
    public Outcome {
      Objects.requireNonNull(outcome, "outcome");
      Objects.requireNonNull(observed, "observed");
    }
  }

  /**
   * A job that failed for a reason its message already states for the job's record (an engine's
   * output, a missing configuration): recorded as it is, without the exception's class name.
   */
  class Failed extends RuntimeException {
    public Failed(String message) {
      super(message);
    }
  }

  /** An executor of {@code kind} that cannot run anything: every attempt fails with {@code why}. */
  static MaintenanceExecutor unavailable(String kind, String why) {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(why, "why");
    return new MaintenanceExecutor() {
      @Override
      public String kind() {
        return kind;
      }

      @Override
      public Outcome run(Job job) {
        throw new Failed(why);
      }
    };
  }

  /** The policy executor this runs: {@link MaintenancePolicy#IN_PROCESS} or another kind. */
  String kind();

  /** Runs the job to its end. @throws RuntimeException when it did not succeed */
  Outcome run(Job job);
}
