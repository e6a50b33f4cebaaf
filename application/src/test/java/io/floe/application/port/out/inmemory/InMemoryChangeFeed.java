package io.floe.application.port.out.inmemory;

import io.floe.application.model.AuditEntry;
import io.floe.application.model.ChangeEvent;
import io.floe.application.model.ChangeFilter;
import io.floe.application.model.FeedPosition;
import io.floe.application.port.out.ChangeFeed;
import io.floe.application.port.out.inmemory.InMemoryDatabase.AuditRow;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The change feed over the in-memory audit log. Its transactions apply one at a time, so an
 * entry's id is already its place in commit order: the position is (id, id), and the event id
 * is derived from the org and the entry.
 */
public final class InMemoryChangeFeed implements ChangeFeed {
  private final InMemoryDatabase db;

  public InMemoryChangeFeed(InMemoryDatabase db) {
    this.db = db;
  }

  @Override
  public List<ChangeEvent> after(UUID orgId, FeedPosition after, ChangeFilter filter,
      Instant notBefore, int limit) {
    return db.statement(() -> {
      List<AuditRow> rows = db.auditLog.values().stream()
          .filter(row -> row.orgId().equals(orgId))
          .sorted(Comparator.comparingLong(row -> row.entry().id())).toList();
      Map<String, Long> perRequest = rows.stream().map(AuditRow::entry)
          .collect(Collectors.groupingBy(AuditEntry::requestId, Collectors.counting()));
      return rows.stream()
          .map(row -> new ChangeEvent(new FeedPosition(row.entry().id(), row.entry().id(),
              row.entry().recordedAt()), UUID.nameUUIDFromBytes((orgId + "/" + row.entry().id())
                  .getBytes(StandardCharsets.UTF_8)), row.entry(),
              perRequest.get(row.entry().requestId()).intValue(), row.namespaceId(),
              row.objectId()))
          .filter(event -> event.position().compareTo(after) > 0)
          .filter(event -> !event.entry().recordedAt().isBefore(notBefore))
          .filter(filter::matches)
          .limit(limit)
          .toList();
    });
  }
}
