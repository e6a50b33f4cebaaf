package io.floe.adapters.persistence.jooq;

import static io.floe.adapters.persistence.jooq.schema.Tables.AUDIT_LOG;
import static io.floe.adapters.persistence.jooq.schema.Tables.CATALOG_OBJECTS;
import static io.floe.adapters.persistence.jooq.schema.Tables.NAMESPACES;

import io.floe.adapters.persistence.jooq.schema.tables.records.AuditLogRecord;
import io.floe.application.model.AuditEntry;
import io.floe.application.model.AuditPage;
import io.floe.application.model.AuditQuery;
import io.floe.application.model.AuditedChange;
import io.floe.application.model.AuditedIdentity;
import io.floe.application.port.out.AuditLog;
import io.floe.domain.Principal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * The audit log in PostgreSQL: rows appended in the change's own transaction, listed newest first
 * by their identity column, which is also the page token (keyset paging).
 */
public final class JooqAuditLog implements AuditLog {
  private final Database database;
  private final DSLContext dsl;

  public JooqAuditLog(Database database) {
    this.database = database;
    this.dsl = database.dsl();
  }

  @Override
  public void append(UUID orgId, Instant recordedAt, Principal actor, String requestId,
      List<AuditedChange> changes) {
    // One statement for all of a request's changes (a transaction may commit many tables).
    // The event ids are drawn here rather than by the database so that one of them can witness
    // the transaction's commit (Database#witnessCommitBy): random, so never another's.
    var insert = dsl.insertInto(AUDIT_LOG, AUDIT_LOG.ORG_ID,
        AUDIT_LOG.RECORDED_AT, AUDIT_LOG.PRINCIPAL_ID, AUDIT_LOG.PRINCIPAL_NAME, AUDIT_LOG.ACTION,
        AUDIT_LOG.TARGET_KIND, AUDIT_LOG.TARGET_NAME, AUDIT_LOG.DETAILS, AUDIT_LOG.REQUEST_ID,
        AUDIT_LOG.EVENT_ID, AUDIT_LOG.NAMESPACE_ID, AUDIT_LOG.OBJECT_ID);
    UUID eventId = null;
    for (AuditedChange change : changes) {
      eventId = UUID.randomUUID();
      Optional<String> namespace = AuditedIdentity.namespaceOf(change);
      Field<UUID> namespaceId = namespace.map(name -> namespaceId(orgId, name))
          .orElse(DSL.inline(null, AUDIT_LOG.NAMESPACE_ID));
      Field<UUID> objectId = AuditedIdentity.objectNameOf(change)
          .map(name -> objectId(namespaceId, name))
          .orElse(DSL.inline(null, AUDIT_LOG.OBJECT_ID));
      insert = insert.values(DSL.val(orgId), DSL.val(Times.of(recordedAt)), DSL.val(actor.id()),
          DSL.val(actor.name()), DSL.val(change.action().wireName()),
          DSL.val(change.target().kind().wireName()), DSL.val(change.target().name()),
          DSL.val(Json.of(change.details()), AUDIT_LOG.DETAILS), DSL.val(requestId),
          DSL.val(eventId), namespaceId, objectId);
    }
    insert.execute();
    if (eventId != null) {
      database.witnessCommitBy(eventId);
    }
  }

  /**
   * The namespace of that name the change was made to, read in its transaction once it is made:
   * the live one, else the one of that name deleted last (the change deleted it).
   */
  private static Field<UUID> namespaceId(UUID orgId, String name) {
    String key = name.toLowerCase(Locale.ROOT);
    // The live one is one probe of the live-name index; COALESCE looks further only when there
    // is none (a delete), so a commit pays one index probe.
    return DSL.coalesce(
        DSL.field(DSL.select(NAMESPACES.ID).from(NAMESPACES).where(NAMESPACES.ORG_ID.eq(orgId),
            NAMESPACES.NAME_KEY.eq(key), NAMESPACES.DELETED_AT.isNull())),
        DSL.field(DSL.select(NAMESPACES.ID).from(NAMESPACES).where(NAMESPACES.ORG_ID.eq(orgId),
            NAMESPACES.NAME_KEY.eq(key), NAMESPACES.DELETED_AT.isNotNull())
            .orderBy(NAMESPACES.DELETED_AT.desc()).limit(1)));
  }

  /** The table or view of that name in the namespace, if it exists once the change is made. */
  private static Field<UUID> objectId(Field<UUID> namespaceId, String name) {
    return DSL.field(DSL.select(CATALOG_OBJECTS.ID).from(CATALOG_OBJECTS)
        .where(CATALOG_OBJECTS.NAMESPACE_ID.eq(namespaceId), CATALOG_OBJECTS.NAME.eq(name)));
  }

  @Override
  public AuditPage list(UUID orgId, AuditQuery query) {
    List<Condition> where = new ArrayList<>(List.of(AUDIT_LOG.ORG_ID.eq(orgId)));
    query.principalId().ifPresent(id -> where.add(AUDIT_LOG.PRINCIPAL_ID.eq(id)));
    query.action().ifPresent(action -> where.add(AUDIT_LOG.ACTION.eq(action.wireName())));
    query.targetKind().ifPresent(kind -> where.add(AUDIT_LOG.TARGET_KIND.eq(kind.wireName())));
    query.targetName().ifPresent(name -> where.add(AUDIT_LOG.TARGET_NAME.eq(name)));
    query.since().ifPresent(since -> where.add(AUDIT_LOG.RECORDED_AT.ge(Times.of(since))));
    query.until().ifPresent(until -> where.add(AUDIT_LOG.RECORDED_AT.lt(Times.of(until))));
    if (query.before().isPresent()) {
      where.add(AUDIT_LOG.ID.lt(query.before().getAsLong()));
    }
    // One more than the page: whether it exists says whether there is a next page.
    List<AuditEntry> rows = dsl.selectFrom(AUDIT_LOG).where(DSL.and(where))
        .orderBy(AUDIT_LOG.ID.desc()).limit(query.limit() + 1)
        .fetch(JooqAuditLog::toEntry);
    boolean more = rows.size() > query.limit();
    List<AuditEntry> page = more ? rows.subList(0, query.limit()) : rows;
    return new AuditPage(page, more ? OptionalLong.of(page.get(page.size() - 1).id())
        : OptionalLong.empty());
  }

  private static AuditEntry toEntry(AuditLogRecord row) {
    return new AuditEntry(row.getId(), Times.instant(row.getRecordedAt()), row.getPrincipalId(),
        row.getPrincipalName(), row.getAction(), row.getTargetKind(), row.getTargetName(),
        Json.objectMap(row.getDetails()), row.getRequestId());
  }
}
