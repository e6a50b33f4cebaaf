package io.floe.application.port.out;

import io.floe.application.model.FeedPosition;
import io.floe.application.model.MaintenanceJob;
import io.floe.application.model.MaintenanceTable;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The maintenance scheduler's state, shared by every replica: how far each org's change feed
 * was read, what it reported about each table, and the jobs. Jobs are claimed under a lease, so
 * that one replica at a time runs a job and another takes it over once the lease expired.
 */
public interface MaintenanceJobStore {
  /** Where the scheduler stopped reading the org's feed; {@link FeedPosition#START} at first. */
  FeedPosition feedRead(UUID orgId);

  /**
   * Adds {@code activity} to the tables' counters and moves the org's cursor from {@code from}
   * to {@code to}, in one transaction; false, recording nothing, when the cursor was no longer at
   * {@code from} (another replica read the same events first), so no commit counts twice.
   */
  boolean record(UUID orgId, FeedPosition from, FeedPosition to,
      List<MaintenanceTable.Activity> activity, Instant at);

  /** Up to {@code limit} tables with commits since they were last planned and no open job. */
  List<MaintenanceTable> toPlan(int limit);

  /**
   * Marks the table planned and, with {@code steps}, opens a pending job due {@code at}, to run
   * on {@code executor}; no job is opened while the table has an open one. Returns the job
   * opened, if any.
   */
  Optional<MaintenanceJob> plan(UUID orgId, String namespace, String name,
      Set<MaintenanceJob.Step> steps, String reason, String executor, Instant at);

  /** {@link #plan(UUID, String, String, Set, String, String, Instant)} in process. */
  default Optional<MaintenanceJob> plan(UUID orgId, String namespace, String name,
      Set<MaintenanceJob.Step> steps, String reason, Instant at) {
    return plan(orgId, namespace, name, steps, reason,
        io.floe.application.model.MaintenancePolicy.IN_PROCESS, at);
  }

  /** Forgets a table the catalog no longer has. */
  void forget(UUID orgId, String tableKey);

  /**
   * Claims the job due longest, for {@code owner} until {@code now + lease}: a pending job due by
   * {@code now}, or a running one whose lease expired before {@code now}. A job another replica
   * is claiming at the same moment is skipped, never waited for nor taken twice.
   */
  Optional<MaintenanceJob> claim(String owner, Instant now, Duration lease);

  /** Extends the lease of a job {@code owner} still holds; false when it holds it no more. */
  boolean renew(long jobId, String owner, Instant until);

  /**
   * Ends a job {@code owner} still holds as {@code state} (succeeded, skipped or failed), with its
   * outcome, and updates the table's counters with what it observed; false when the lease was lost.
   */
  boolean finish(long jobId, String owner, MaintenanceJob.State state, String outcome,
      MaintenanceTable.Observed observed, Instant at);

  /** Puts a job {@code owner} holds back to pending, due {@code dueAt}, with why it failed. */
  boolean retry(long jobId, String owner, String error, Instant dueAt);

  /** The table's jobs, newest first, at most {@code limit}. */
  List<MaintenanceJob> jobs(UUID orgId, String tableKey, int limit);
}
