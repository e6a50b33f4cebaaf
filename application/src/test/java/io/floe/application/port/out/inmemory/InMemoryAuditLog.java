package io.floe.application.port.out.inmemory;

import java.util.Optional;
import java.util.Locale;
import io.floe.domain.Namespace;
import io.floe.domain.CatalogObject;
import io.floe.application.model.AuditedIdentity;
import io.floe.application.model.AuditEntry;
import io.floe.application.model.AuditPage;
import io.floe.application.model.AuditQuery;
import io.floe.application.model.AuditedChange;
import io.floe.application.port.out.AuditLog;
import io.floe.application.port.out.inmemory.InMemoryDatabase.AuditRow;
import io.floe.domain.Principal;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * Each org's audit log in memory. Ids come from one counter that a rollback does not wind back,
 * as an identity column's sequence is not: ids only grow, with gaps.
 */
public final class InMemoryAuditLog implements AuditLog {
  private final InMemoryDatabase db;
  private final AtomicLong ids = new AtomicLong();

  public InMemoryAuditLog(InMemoryDatabase db) {
    this.db = db;
  }

  @Override
  public void append(UUID orgId, Instant recordedAt, Principal actor, String requestId,
      List<AuditedChange> changes) {
    db.statement(() -> {
      for (AuditedChange change : changes) {
        long id = ids.incrementAndGet();
        Optional<UUID> namespaceId = AuditedIdentity.namespaceOf(change)
            .flatMap(name -> namespaceId(orgId, name));
        Optional<UUID> objectId = namespaceId.flatMap(ns -> AuditedIdentity.objectNameOf(change)
            .flatMap(name -> db.objects.values().stream()
                .filter(object -> object.namespaceId().equals(ns)
                    && object.name().value().equals(name))
                .map(CatalogObject::id).findFirst()));
        db.auditLog.put(id, new AuditRow(orgId, new AuditEntry(id, recordedAt, actor.id(),
            actor.name(), change.action().wireName(), change.target().kind().wireName(),
            change.target().name(), change.details(), requestId), namespaceId, objectId));
      }
      return null;
    });
  }

  @Override
  public AuditPage list(UUID orgId, AuditQuery query) {
    return db.statement(() -> {
      List<AuditEntry> matching = db.auditLog.values().stream()
          .filter(row -> row.orgId().equals(orgId)).map(AuditRow::entry)
          .filter(matches(query))
          .sorted(Comparator.comparingLong(AuditEntry::id).reversed())
          .limit(query.limit() + 1L)
          .toList();
      boolean more = matching.size() > query.limit();
      List<AuditEntry> page = more ? matching.subList(0, query.limit()) : matching;
      return new AuditPage(page, more ? OptionalLong.of(page.get(page.size() - 1).id())
          : OptionalLong.empty());
    });
  }

  private static Predicate<AuditEntry> matches(AuditQuery query) {
    return entry -> query.principalId().map(entry.principalId()::equals).orElse(true)
        && query.action().map(action -> action.wireName().equals(entry.action())).orElse(true)
        && query.targetKind().map(kind -> kind.wireName().equals(entry.targetKind()))
            .orElse(true)
        && query.targetName().map(entry.targetName()::equals).orElse(true)
        && query.since().map(since -> !entry.recordedAt().isBefore(since)).orElse(true)
        && query.until().map(until -> entry.recordedAt().isBefore(until)).orElse(true)
        && (query.before().isEmpty() || entry.id() < query.before().getAsLong());
  }

  /** As the database resolves it: the live namespace of that name, else the one deleted last. */
  private Optional<UUID> namespaceId(UUID orgId, String name) {
    return db.namespaces.values().stream().map(row -> row.owner())
        .filter(ns -> ns.orgId().equals(orgId)
            && ns.name().key().equals(name.toLowerCase(Locale.ROOT)))
        .max(Comparator.comparing((Namespace ns) -> ns.deletedAt().isEmpty())
            .thenComparing(ns -> ns.deletedAt().orElse(Instant.MIN)))
        .map(Namespace::id);
  }
}
