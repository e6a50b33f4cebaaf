package io.floe.adapters.persistence.jooq;

import static io.floe.adapters.persistence.jooq.schema.Tables.AUDIT_LOG;

import io.floe.adapters.persistence.jooq.schema.tables.AuditLog;
import io.floe.application.model.AuditEntry;
import io.floe.application.model.ChangeEvent;
import io.floe.application.model.ChangeFilter;
import io.floe.application.model.FeedPosition;
import io.floe.application.port.out.ChangeFeed;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * The change feed in PostgreSQL: the audit log's rows, read in (writing transaction, id) order
 * and only below the oldest transaction still running. A transaction's id is taken when it
 * first writes and its rows become visible when it commits, in any order; but once every
 * transaction below a given id has ended, no row with a lower transaction id can ever appear, so
 * a reader that moves forward in this order never passes over an event it will later find.
 */
public final class JooqChangeFeed implements ChangeFeed {
  private static final List<String> CATALOG_OBJECTS = List.of("table", "view");
  /** The oldest transaction still running when the statement's snapshot was taken. */
  private static final Field<Long> SETTLED_BELOW = DSL.field(
      "pg_snapshot_xmin(pg_current_snapshot())::text::bigint", SQLDataType.BIGINT);

  private final DSLContext dsl;

  public JooqChangeFeed(Database database) {
    this.dsl = database.dsl();
  }

  @Override
  public List<ChangeEvent> after(UUID orgId, FeedPosition after, ChangeFilter filter,
      Instant notBefore, int limit) {
    AuditLog same = AUDIT_LOG.as("same_request");
    Field<Integer> requestEvents = DSL.field(DSL.selectCount().from(same)
        .where(same.ORG_ID.eq(AUDIT_LOG.ORG_ID), same.TXID.eq(AUDIT_LOG.TXID),
            same.REQUEST_ID.eq(AUDIT_LOG.REQUEST_ID))).as("request_events");
    return dsl.select(AUDIT_LOG.asterisk(), requestEvents).from(AUDIT_LOG)
        .where(AUDIT_LOG.ORG_ID.eq(orgId))
        .and(AUDIT_LOG.TXID.lt(SETTLED_BELOW))
        .and(DSL.row(AUDIT_LOG.TXID, AUDIT_LOG.ID).gt(after.transaction(), after.sequence()))
        .and(AUDIT_LOG.RECORDED_AT.ge(Times.of(notBefore)))
        .and(matching(filter))
        .orderBy(AUDIT_LOG.TXID, AUDIT_LOG.ID)
        .limit(limit)
        .fetch(JooqChangeFeed::toEvent);
  }

  private static Condition matching(ChangeFilter filter) {
    List<Condition> where = new ArrayList<>();
    if (!filter.actions().isEmpty()) {
      where.add(AUDIT_LOG.ACTION.in(filter.actions()));
    }
    if (!filter.targetKinds().isEmpty()) {
      where.add(AUDIT_LOG.TARGET_KIND.in(filter.targetKinds()));
    }
    filter.since().ifPresent(since -> where.add(AUDIT_LOG.RECORDED_AT.ge(Times.of(since))));
    if (!filter.namespaces().isEmpty() || !filter.objects().isEmpty()) {
      // Names compare ignoring case, as the filter holds them (ChangeFilter.key).
      Field<String> namespace = DSL.lower(DSL.field("{0} ->> 'namespace'", SQLDataType.CLOB,
          AUDIT_LOG.DETAILS));
      Field<String> target = DSL.lower(AUDIT_LOG.TARGET_NAME);
      where.add(DSL.or(
          AUDIT_LOG.TARGET_KIND.eq("namespace").and(target.in(filter.namespaces())),
          AUDIT_LOG.TARGET_KIND.in(CATALOG_OBJECTS).and(namespace.in(filter.namespaces())),
          AUDIT_LOG.TARGET_KIND.in(CATALOG_OBJECTS).and(target.in(filter.objects()))));
    }
    return DSL.and(where);
  }

  private static ChangeEvent toEvent(Record row) {
    AuditEntry entry = new AuditEntry(row.get(AUDIT_LOG.ID),
        Times.instant(row.get(AUDIT_LOG.RECORDED_AT)), row.get(AUDIT_LOG.PRINCIPAL_ID),
        row.get(AUDIT_LOG.PRINCIPAL_NAME), row.get(AUDIT_LOG.ACTION),
        row.get(AUDIT_LOG.TARGET_KIND), row.get(AUDIT_LOG.TARGET_NAME),
        Json.objectMap(row.get(AUDIT_LOG.DETAILS)), row.get(AUDIT_LOG.REQUEST_ID));
    return new ChangeEvent(new FeedPosition(row.get(AUDIT_LOG.TXID), entry.id(),
        entry.recordedAt()), row.get(AUDIT_LOG.EVENT_ID), entry,
        row.get("request_events", Integer.class),
        Optional.ofNullable(row.get(AUDIT_LOG.NAMESPACE_ID)),
        Optional.ofNullable(row.get(AUDIT_LOG.OBJECT_ID)));
  }
}
