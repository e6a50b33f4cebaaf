package io.floe.adapters.persistence.jooq;

import static io.floe.adapters.persistence.jooq.schema.Tables.MAINTENANCE_FEED_CURSORS;
import static io.floe.adapters.persistence.jooq.schema.Tables.MAINTENANCE_JOBS;
import static io.floe.adapters.persistence.jooq.schema.Tables.MAINTENANCE_TABLES;

import io.floe.adapters.persistence.jooq.schema.tables.records.MaintenanceJobsRecord;
import io.floe.adapters.persistence.jooq.schema.tables.records.MaintenanceTablesRecord;
import io.floe.application.model.FeedPosition;
import io.floe.application.model.MaintenanceJob;
import io.floe.application.model.MaintenanceJob.State;
import io.floe.application.model.MaintenanceJob.Step;
import io.floe.application.model.MaintenanceTable;
import io.floe.application.port.out.MaintenanceJobStore;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * The maintenance scheduler's state in PostgreSQL: {@code maintenance_feed_cursors},
 * {@code maintenance_tables} and {@code maintenance_jobs}. A job is claimed with
 * {@code FOR UPDATE SKIP LOCKED}, so replicas claiming at once each get a different job.
 */
public final class JooqMaintenanceJobStore implements MaintenanceJobStore {
  private static final List<String> OPEN = List.of(State.PENDING.wire(), State.RUNNING.wire());

  private final Database database;
  private final DSLContext dsl;

  public JooqMaintenanceJobStore(Database database) {
    this.database = database;
    this.dsl = database.dsl();
  }

  @Override
  public FeedPosition feedRead(UUID orgId) {
    return dsl.selectFrom(MAINTENANCE_FEED_CURSORS)
        .where(MAINTENANCE_FEED_CURSORS.ORG_ID.eq(orgId))
        .fetchOptional(row -> new FeedPosition(row.getTxid(), row.getSeq(),
            Times.instant(row.getRecordedAt())))
        .orElse(FeedPosition.START);
  }

  @Override
  public boolean record(UUID orgId, FeedPosition from, FeedPosition to,
      List<MaintenanceTable.Activity> activity, Instant at) {
    return database.inTransaction(() -> {
      if (!moveCursor(orgId, from, to)) {
        return false;
      }
      for (MaintenanceTable.Activity table : activity) {
        add(orgId, table, at);
      }
      return true;
    });
  }

  /** Moves the cursor if it is still at {@code from}; the row lock orders racing replicas. */
  private boolean moveCursor(UUID orgId, FeedPosition from, FeedPosition to) {
    if (from.isStart()) {
      return dsl.insertInto(MAINTENANCE_FEED_CURSORS)
          .set(MAINTENANCE_FEED_CURSORS.ORG_ID, orgId)
          .set(MAINTENANCE_FEED_CURSORS.TXID, to.transaction())
          .set(MAINTENANCE_FEED_CURSORS.SEQ, to.sequence())
          .set(MAINTENANCE_FEED_CURSORS.RECORDED_AT, Times.of(to.recordedAt()))
          .onConflictDoNothing().execute() == 1;
    }
    return dsl.update(MAINTENANCE_FEED_CURSORS)
        .set(MAINTENANCE_FEED_CURSORS.TXID, to.transaction())
        .set(MAINTENANCE_FEED_CURSORS.SEQ, to.sequence())
        .set(MAINTENANCE_FEED_CURSORS.RECORDED_AT, Times.of(to.recordedAt()))
        .where(MAINTENANCE_FEED_CURSORS.ORG_ID.eq(orgId),
            MAINTENANCE_FEED_CURSORS.TXID.eq(from.transaction()),
            MAINTENANCE_FEED_CURSORS.SEQ.eq(from.sequence()))
        .execute() == 1;
  }

  private void add(UUID orgId, MaintenanceTable.Activity table, Instant at) {
    Long files = table.totalDataFiles().isPresent() ? table.totalDataFiles().getAsLong() : null;
    Long size = table.totalFilesSize().isPresent() ? table.totalFilesSize().getAsLong() : null;
    var t = MAINTENANCE_TABLES;
    dsl.insertInto(t)
        .set(t.ORG_ID, orgId)
        .set(t.TABLE_KEY, table.key())
        .set(t.NAMESPACE, table.namespace())
        .set(t.NAME, table.name())
        .set(t.TOTAL_DATA_FILES, files)
        .set(t.TOTAL_FILES_SIZE, size)
        .set(t.SNAPSHOTS, table.addedSnapshots())
        .set(t.DATA_MANIFESTS, table.dataCommits())
        .set(t.COMMITS_SINCE_ORPHAN_REMOVAL, table.commits())
        .set(t.DIRTY, table.commits() > 0)
        .set(t.UPDATED_AT, Times.of(at))
        .onConflict(t.ORG_ID, t.TABLE_KEY).doUpdate()
        .set(t.NAMESPACE, table.namespace())
        .set(t.NAME, table.name())
        .set(t.TOTAL_DATA_FILES, DSL.coalesce(DSL.val(files), t.TOTAL_DATA_FILES))
        .set(t.TOTAL_FILES_SIZE, DSL.coalesce(DSL.val(size), t.TOTAL_FILES_SIZE))
        .set(t.SNAPSHOTS, t.SNAPSHOTS.plus(table.addedSnapshots()))
        .set(t.DATA_MANIFESTS, t.DATA_MANIFESTS.plus(table.dataCommits()))
        .set(t.COMMITS_SINCE_ORPHAN_REMOVAL, t.COMMITS_SINCE_ORPHAN_REMOVAL.plus(table.commits()))
        .set(t.DIRTY, table.commits() > 0 ? DSL.inline(true) : t.DIRTY)
        .set(t.UPDATED_AT, Times.of(at))
        .execute();
  }

  @Override
  public List<MaintenanceTable> toPlan(int limit) {
    var t = MAINTENANCE_TABLES;
    var j = MAINTENANCE_JOBS;
    return dsl.selectFrom(t)
        .where(t.DIRTY)
        .andNotExists(DSL.selectOne().from(j).where(j.ORG_ID.eq(t.ORG_ID),
            j.TABLE_KEY.eq(t.TABLE_KEY), j.STATE.in(OPEN)))
        .orderBy(t.UPDATED_AT)
        .limit(limit)
        .fetch(JooqMaintenanceJobStore::toTable);
  }

  @Override
  public Optional<MaintenanceJob> plan(UUID orgId, String namespace, String name,
      Set<Step> steps, String reason, String executor, Instant at) {
    String key = MaintenanceTable.key(namespace, name);
    return database.inTransaction(() -> {
      dsl.update(MAINTENANCE_TABLES).set(MAINTENANCE_TABLES.DIRTY, false)
          .where(MAINTENANCE_TABLES.ORG_ID.eq(orgId), MAINTENANCE_TABLES.TABLE_KEY.eq(key))
          .execute();
      if (steps.isEmpty()) {
        return Optional.<MaintenanceJob>empty();
      }
      var j = MAINTENANCE_JOBS;
      return dsl.insertInto(j)
          .set(j.ORG_ID, orgId)
          .set(j.TABLE_KEY, key)
          .set(j.NAMESPACE, namespace)
          .set(j.NAME, name)
          .set(j.STEPS, wire(steps))
          .set(j.REASON, reason)
          .set(j.EXECUTOR, executor)
          .set(j.STATE, State.PENDING.wire())
          .set(j.CREATED_AT, Times.of(at))
          .set(j.DUE_AT, Times.of(at))
          .onConflictDoNothing()
          .returning()
          .fetchOptional()
          .map(JooqMaintenanceJobStore::toJob);
    });
  }

  @Override
  public void forget(UUID orgId, String tableKey) {
    dsl.deleteFrom(MAINTENANCE_TABLES)
        .where(MAINTENANCE_TABLES.ORG_ID.eq(orgId), MAINTENANCE_TABLES.TABLE_KEY.eq(tableKey))
        .execute();
  }

  @Override
  public Optional<MaintenanceJob> claim(String owner, Instant now, Duration lease) {
    var j = MAINTENANCE_JOBS;
    return database.inTransaction(() -> {
      // SKIP LOCKED: a job another replica is claiming right now is its; take the next one.
      Optional<Long> due = dsl.select(j.ID).from(j)
          .where(j.STATE.eq(State.PENDING.wire()).and(j.DUE_AT.le(Times.of(now)))
              .or(j.STATE.eq(State.RUNNING.wire()).and(j.LEASE_EXPIRES_AT.lt(Times.of(now)))))
          .orderBy(DSL.coalesce(j.LEASE_EXPIRES_AT, j.DUE_AT), j.ID)
          .limit(1)
          .forUpdate().skipLocked()
          .fetchOptional(j.ID);
      return due.flatMap(id -> dsl.update(j)
          .set(j.STATE, State.RUNNING.wire())
          .set(j.LEASE_OWNER, owner)
          .set(j.LEASE_EXPIRES_AT, Times.of(now.plus(lease)))
          .set(j.STARTED_AT, Times.of(now))
          .set(j.ATTEMPTS, j.ATTEMPTS.plus(1))
          .where(j.ID.eq(id))
          .returning()
          .fetchOptional()
          .map(JooqMaintenanceJobStore::toJob));
    });
  }

  @Override
  public boolean renew(long jobId, String owner, Instant until) {
    var j = MAINTENANCE_JOBS;
    return dsl.update(j).set(j.LEASE_EXPIRES_AT, Times.of(until))
        .where(j.ID.eq(jobId), j.LEASE_OWNER.eq(owner), j.STATE.eq(State.RUNNING.wire()))
        .execute() == 1;
  }

  @Override
  public boolean finish(long jobId, String owner, State state, String outcome,
      MaintenanceTable.Observed observed, Instant at) {
    var j = MAINTENANCE_JOBS;
    var t = MAINTENANCE_TABLES;
    return database.inTransaction(() -> {
      Optional<MaintenanceJobsRecord> ended = dsl.update(j)
          .set(j.STATE, state.wire())
          .set(j.OUTCOME, outcome)
          .set(j.FINISHED_AT, Times.of(at))
          .setNull(j.LEASE_EXPIRES_AT)
          .where(j.ID.eq(jobId), j.LEASE_OWNER.eq(owner), j.STATE.eq(State.RUNNING.wire()))
          .returning().fetchOptional();
      if (ended.isEmpty()) {
        return false;
      }
      var update = dsl.update(t).set(t.UPDATED_AT, t.UPDATED_AT);
      if (observed.snapshots().isPresent()) {
        update = update.set(t.SNAPSHOTS, observed.snapshots().get());
      }
      if (observed.dataManifests().isPresent()) {
        update = update.set(t.DATA_MANIFESTS, observed.dataManifests().get());
      }
      if (observed.orphansRemoved()) {
        update = update.set(t.COMMITS_SINCE_ORPHAN_REMOVAL, 0)
            .set(t.ORPHANS_REMOVED_AT, Times.of(at));
      }
      update.where(t.ORG_ID.eq(ended.get().getOrgId()),
          t.TABLE_KEY.eq(ended.get().getTableKey())).execute();
      return true;
    });
  }

  @Override
  public boolean retry(long jobId, String owner, String error, Instant dueAt) {
    var j = MAINTENANCE_JOBS;
    return dsl.update(j)
        .set(j.STATE, State.PENDING.wire())
        .set(j.DUE_AT, Times.of(dueAt))
        .set(j.LAST_ERROR, error)
        .setNull(j.LEASE_OWNER)
        .setNull(j.LEASE_EXPIRES_AT)
        .where(j.ID.eq(jobId), j.LEASE_OWNER.eq(owner), j.STATE.eq(State.RUNNING.wire()))
        .execute() == 1;
  }

  @Override
  public List<MaintenanceJob> jobs(UUID orgId, String tableKey, int limit) {
    var j = MAINTENANCE_JOBS;
    return dsl.selectFrom(j).where(j.ORG_ID.eq(orgId), j.TABLE_KEY.eq(tableKey))
        .orderBy(j.ID.desc()).limit(limit).fetch(JooqMaintenanceJobStore::toJob);
  }

  private static String wire(Set<Step> steps) {
    return steps.stream().sorted(Comparator.naturalOrder()).map(Step::wire)
        .collect(Collectors.joining(","));
  }

  private static MaintenanceTable toTable(MaintenanceTablesRecord row) {
    return new MaintenanceTable(row.getOrgId(), row.getNamespace(), row.getName(),
        row.getTotalDataFiles() == null ? OptionalLong.empty()
            : OptionalLong.of(row.getTotalDataFiles()),
        row.getTotalFilesSize() == null ? OptionalLong.empty()
            : OptionalLong.of(row.getTotalFilesSize()),
        row.getSnapshots(), row.getDataManifests(), row.getCommitsSinceOrphanRemoval(),
        Times.optional(row.getOrphansRemovedAt()));
  }

  private static MaintenanceJob toJob(MaintenanceJobsRecord row) {
    Set<Step> steps = row.getSteps().isEmpty() ? Set.of() : Arrays.stream(row.getSteps().split(","))
        .map(Step::ofWire).collect(Collectors.toSet());
    return new MaintenanceJob(row.getId(), row.getOrgId(), row.getNamespace(), row.getName(),
        steps, row.getReason(), State.ofWire(row.getState()), row.getAttempts(),
        Times.instant(row.getCreatedAt()), Times.instant(row.getDueAt()),
        Optional.ofNullable(row.getLeaseOwner()), Times.optional(row.getLeaseExpiresAt()),
        Times.optional(row.getStartedAt()), Times.optional(row.getFinishedAt()),
        Optional.ofNullable(row.getOutcome()), Optional.ofNullable(row.getLastError()),
        row.getExecutor());
  }
}
