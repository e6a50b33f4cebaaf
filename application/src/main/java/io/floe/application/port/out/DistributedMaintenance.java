package io.floe.application.port.out;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Maintenance of one table run by an engine outside the server (a Spark job): it reaches the
 * catalog over REST like any engine, with the job's own short-lived token, and commits through
 * the catalog's commit route, so through the one committer. {@link #run} returns once the job
 * has ended: with what it did, or with a {@link Failed} carrying why (its output's tail).
 */
public interface DistributedMaintenance {
  /** Why a job of a policy that chooses Spark fails on a server that has none. */
  String NOT_CONFIGURED = "no Spark is configured for maintenance: start the server with "
      + "--spark-submit and --spark-master";

  /** Bin-pack the data files smaller than {@code targetFileSizeBytes}. */
  record Compaction(long targetFileSizeBytes, int minInputFiles) {}

  /** Expire snapshots older than {@code olderThan}, keeping at least {@code retainLast}. */
  record Expiry(Instant olderThan, int retainLast) {}

  /**
   * One job: the catalog's warehouse (the org) and the table, the token it authenticates with,
   * and the steps, run in this order: compact, expire, rewrite manifests, remove the orphans
   * older than {@code orphansOlderThan}. A dry run reports what would happen and changes nothing.
   */
  record Job(long id, String warehouse, String namespace, String table, String token,
      Optional<Compaction> compact, Optional<Expiry> expire, boolean rewriteManifests,
      Optional<Instant> orphansOlderThan, boolean dryRun) {
    public Job {
      Objects.requireNonNull(warehouse, "warehouse");
      Objects.requireNonNull(namespace, "namespace");
      Objects.requireNonNull(table, "table");
      Objects.requireNonNull(token, "token");
      Objects.requireNonNull(compact, "compact");
      Objects.requireNonNull(expire, "expire");
      Objects.requireNonNull(orphansOlderThan, "orphansOlderThan");
    }

    /** The job without its token, for logs. */
    @Override
    public String toString() {
      return "Job[" + id + " " + namespace + "." + table + "]";
    }
  }

  /**
   * What a job did: a line per step ({@code outcome}), and what it saw of the table at its end
   * when it looked (its snapshots, its current snapshot's data manifests).
   */
  record Outcome(String outcome, Optional<Integer> snapshots, Optional<Integer> dataManifests) {}

  /**
   * A job that failed, ran out of time or could not start; the message says why, and is what the
   * job's record keeps.
   */
  final class Failed extends MaintenanceExecutor.Failed {
    public Failed(String message) {
      super(message);
    }
  }

  /** Runs the job to its end. @throws Failed when it did not succeed */
  Outcome run(Job job);
}
