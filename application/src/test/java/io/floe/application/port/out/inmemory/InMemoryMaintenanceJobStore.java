package io.floe.application.port.out.inmemory;

import io.floe.application.model.FeedPosition;
import io.floe.application.model.MaintenanceJob;
import io.floe.application.model.MaintenanceJob.State;
import io.floe.application.model.MaintenanceJob.Step;
import io.floe.application.model.MaintenanceTable;
import io.floe.application.port.out.MaintenanceJobStore;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;

/** The maintenance scheduler's state in memory; one lock orders every call, as one row would. */
public final class InMemoryMaintenanceJobStore implements MaintenanceJobStore {
  private record TableRow(MaintenanceTable table, boolean dirty, Instant updatedAt) {}

  private final Map<UUID, FeedPosition> cursors = new HashMap<>();
  private final Map<String, TableRow> tables = new LinkedHashMap<>();
  private final Map<Long, MaintenanceJob> jobs = new LinkedHashMap<>();
  private long nextId = 1;

  private static String rowKey(UUID orgId, String tableKey) {
    return orgId + "/" + tableKey;
  }

  @Override
  public synchronized FeedPosition feedRead(UUID orgId) {
    return cursors.getOrDefault(orgId, FeedPosition.START);
  }

  @Override
  public synchronized boolean record(UUID orgId, FeedPosition from, FeedPosition to,
      List<MaintenanceTable.Activity> activity, Instant at) {
    FeedPosition current = cursors.getOrDefault(orgId, FeedPosition.START);
    if (current.compareTo(from) != 0) {
      return false;
    }
    cursors.put(orgId, to);
    for (MaintenanceTable.Activity seen : activity) {
      String key = rowKey(orgId, seen.key());
      TableRow row = tables.get(key);
      MaintenanceTable before = row != null ? row.table() : new MaintenanceTable(orgId,
          seen.namespace(), seen.name(), OptionalLong.empty(), OptionalLong.empty(), 0, 0, 0,
          Optional.empty());
      MaintenanceTable after = new MaintenanceTable(orgId, seen.namespace(), seen.name(),
          seen.totalDataFiles().isPresent() ? seen.totalDataFiles() : before.totalDataFiles(),
          seen.totalDataFiles().isPresent() ? seen.totalFilesSize() : before.totalFilesSize(),
          before.snapshots() + seen.addedSnapshots(),
          before.dataManifests() + seen.dataCommits(),
          before.commitsSinceOrphanRemoval() + seen.commits(), before.orphansRemovedAt());
      tables.put(key, new TableRow(after, (row != null && row.dirty()) || seen.commits() > 0,
          at));
    }
    return true;
  }

  private boolean open(UUID orgId, String tableKey) {
    return jobs.values().stream().anyMatch(job -> job.orgId().equals(orgId)
        && job.tableKey().equals(tableKey)
        && (job.state() == State.PENDING || job.state() == State.RUNNING));
  }

  @Override
  public synchronized List<MaintenanceTable> toPlan(int limit) {
    return tables.values().stream()
        .filter(row -> row.dirty() && !open(row.table().orgId(), row.table().key()))
        .sorted(Comparator.comparing(TableRow::updatedAt))
        .limit(limit).map(TableRow::table).toList();
  }

  @Override
  public synchronized Optional<MaintenanceJob> plan(UUID orgId, String namespace, String name,
      Set<Step> steps, String reason, String executor, Instant at) {
    String tableKey = MaintenanceTable.key(namespace, name);
    TableRow row = tables.get(rowKey(orgId, tableKey));
    if (row != null) {
      tables.put(rowKey(orgId, tableKey), new TableRow(row.table(), false, row.updatedAt()));
    }
    if (steps.isEmpty() || open(orgId, tableKey)) {
      return Optional.empty();
    }
    MaintenanceJob job = new MaintenanceJob(nextId++, orgId, namespace, name, steps, reason,
        State.PENDING, 0, at, at, Optional.empty(), Optional.empty(), Optional.empty(),
        Optional.empty(), Optional.empty(), Optional.empty(), executor);
    jobs.put(job.id(), job);
    return Optional.of(job);
  }

  @Override
  public synchronized void forget(UUID orgId, String tableKey) {
    tables.remove(rowKey(orgId, tableKey));
  }

  @Override
  public synchronized Optional<MaintenanceJob> claim(String owner, Instant now, Duration lease) {
    Optional<MaintenanceJob> due = jobs.values().stream()
        .filter(job -> job.state() == State.PENDING && !job.dueAt().isAfter(now)
            || job.state() == State.RUNNING && job.leaseExpiresAt().orElseThrow().isBefore(now))
        .min(Comparator.comparing((MaintenanceJob job) -> job.leaseExpiresAt()
            .orElse(job.dueAt())).thenComparingLong(MaintenanceJob::id));
    return due.map(job -> {
      MaintenanceJob claimed = new MaintenanceJob(job.id(), job.orgId(), job.namespace(),
          job.name(), job.steps(), job.reason(), State.RUNNING, job.attempts() + 1,
          job.createdAt(), job.dueAt(), Optional.of(owner), Optional.of(now.plus(lease)),
          Optional.of(now), Optional.empty(), Optional.empty(), job.lastError(),
          job.executor());
      jobs.put(job.id(), claimed);
      return claimed;
    });
  }

  private Optional<MaintenanceJob> held(long jobId, String owner) {
    return Optional.ofNullable(jobs.get(jobId)).filter(job -> job.state() == State.RUNNING
        && job.leaseOwner().equals(Optional.of(owner)));
  }

  @Override
  public synchronized boolean renew(long jobId, String owner, Instant until) {
    return held(jobId, owner).map(job -> {
      jobs.put(jobId, new MaintenanceJob(job.id(), job.orgId(), job.namespace(), job.name(),
          job.steps(), job.reason(), job.state(), job.attempts(), job.createdAt(), job.dueAt(),
          job.leaseOwner(), Optional.of(until), job.startedAt(), job.finishedAt(), job.outcome(),
          job.lastError(), job.executor()));
      return true;
    }).orElse(false);
  }

  @Override
  public synchronized boolean finish(long jobId, String owner, State state, String outcome,
      MaintenanceTable.Observed observed, Instant at) {
    return held(jobId, owner).map(job -> {
      jobs.put(jobId, new MaintenanceJob(job.id(), job.orgId(), job.namespace(), job.name(),
          job.steps(), job.reason(), state, job.attempts(), job.createdAt(), job.dueAt(),
          job.leaseOwner(), Optional.empty(), job.startedAt(), Optional.of(at),
          Optional.of(outcome), job.lastError(), job.executor()));
      String key = rowKey(job.orgId(), job.tableKey());
      TableRow row = tables.get(key);
      if (row != null) {
        MaintenanceTable t = row.table();
        tables.put(key, new TableRow(new MaintenanceTable(t.orgId(), t.namespace(), t.name(),
            t.totalDataFiles(), t.totalFilesSize(), observed.snapshots().orElse(t.snapshots()),
            observed.dataManifests().orElse(t.dataManifests()),
            observed.orphansRemoved() ? 0 : t.commitsSinceOrphanRemoval(),
            observed.orphansRemoved() ? Optional.of(at) : t.orphansRemovedAt()), row.dirty(),
            row.updatedAt()));
      }
      return true;
    }).orElse(false);
  }

  @Override
  public synchronized boolean retry(long jobId, String owner, String error, Instant dueAt) {
    return held(jobId, owner).map(job -> {
      jobs.put(jobId, new MaintenanceJob(job.id(), job.orgId(), job.namespace(), job.name(),
          job.steps(), job.reason(), State.PENDING, job.attempts(), job.createdAt(), dueAt,
          Optional.empty(), Optional.empty(), job.startedAt(), job.finishedAt(), job.outcome(),
          Optional.of(error), job.executor()));
      return true;
    }).orElse(false);
  }

  @Override
  public synchronized List<MaintenanceJob> jobs(UUID orgId, String tableKey, int limit) {
    return jobs.values().stream()
        .filter(job -> job.orgId().equals(orgId) && job.tableKey().equals(tableKey))
        .sorted(Comparator.comparingLong(MaintenanceJob::id).reversed())
        .limit(limit).toList();
  }
}
