package io.floe.application.port.out.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.model.AuditAction;
import io.floe.application.model.AuditEntry;
import io.floe.application.model.AuditPage;
import io.floe.application.model.AuditQuery;
import io.floe.application.model.AuditTarget;
import io.floe.application.model.AuditedChange;
import io.floe.application.port.out.AuditLog;
import io.floe.domain.Principal;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import io.floe.application.model.ChangeEvent;
import io.floe.application.model.ChangeFilter;
import io.floe.application.model.FeedPosition;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import org.junit.jupiter.api.Test;

/**
 * {@link AuditLog}: an org's entries come back newest first, a page at a time, each page starting
 * where the last one ended; the filters combine; an org sees only its own entries; an entry joins
 * the caller's transaction and rolls back with the change it records.
 */
public abstract class AuditLogContract extends PortContract {
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

  private AuditLog audit() {
    return ports().audit();
  }

  @Test
  void pagesComeNewestFirstAndEachStartsWhereTheLastEnded() {
    Principal ada = fixture.user("ada");
    Principal bob = fixture.user("bob");
    appendCommits(ada, bob);
    // Two changes of one request (a multi-table transaction), appended together.
    audit().append(fixture.org.id(), START.plusSeconds(5), ada, "request-5", List.of(
        AuditedChange.of(AuditAction.TABLE_COMMIT, AuditTarget.Kind.TABLE, "ns.a"),
        AuditedChange.of(AuditAction.TABLE_COMMIT, AuditTarget.Kind.TABLE, "ns.b")));

    AuditPage first = audit().list(fixture.org.id(), page(OptionalLong.empty(), 3));
    assertThat(first.entries()).extracting(AuditEntry::targetName)
        .containsExactly("ns.b", "ns.a", "ns.t4");
    AuditEntry t4 = first.entries().get(2);
    assertThat(t4.principalId()).isEqualTo(ada.id());
    assertThat(t4.principalName()).isEqualTo("ada");
    assertThat(t4.action()).isEqualTo("table.commit");
    assertThat(t4.targetKind()).isEqualTo("table");
    assertThat(t4.requestId()).isEqualTo("request-4");
    assertThat(t4.recordedAt()).isEqualTo(START.plusSeconds(4));
    assertThat(t4.details()).containsEntry("updates", List.of("add-snapshot"))
        .containsEntry("n", 4);
    AuditPage second = audit().list(fixture.org.id(), page(first.nextBefore(), 3));
    assertThat(second.entries()).extracting(AuditEntry::targetName)
        .containsExactly("ns.t3", "ns.t2", "ns.t1");
    AuditPage last = audit().list(fixture.org.id(), page(second.nextBefore(), 3));
    assertThat(last.entries()).extracting(AuditEntry::targetName).containsExactly("ns.t0");
    assertThat(last.nextBefore()).isEmpty();
  }

  @Test
  void anEntryRecordedWhilePagingComesBeforeEveryPageAlreadyRead() {
    Principal ada = fixture.user("ada");
    appendCommits(ada, ada);
    AuditPage first = audit().list(fixture.org.id(), page(OptionalLong.empty(), 2));
    audit().append(fixture.org.id(), START.plusSeconds(60), ada, "late", List.of(
        AuditedChange.of(AuditAction.TABLE_DROP, AuditTarget.Kind.TABLE, "ns.late")));
    assertThat(audit().list(fixture.org.id(), page(first.nextBefore(), 10)).entries())
        .extracting(AuditEntry::targetName).containsExactly("ns.t2", "ns.t1", "ns.t0");
    assertThat(audit().list(fixture.org.id(), page(OptionalLong.empty(), 1)).entries())
        .extracting(AuditEntry::targetName).containsExactly("ns.late");
  }

  @Test
  void filtersCombine() {
    Principal ada = fixture.user("ada");
    Principal bob = fixture.user("bob");
    appendCommits(ada, bob);
    audit().append(fixture.org.id(), START.plusSeconds(3), bob, "grant", List.of(
        AuditedChange.of(AuditAction.GRANT_CREATE, AuditTarget.Kind.NAMESPACE, "ns")));

    assertThat(list(new AuditQuery(Optional.of(bob.id()), Optional.empty(), Optional.empty(),
        Optional.empty(), Optional.empty(), Optional.empty(), OptionalLong.empty(), 10)))
        .containsExactly("ns", "ns.t3", "ns.t1");
    assertThat(list(new AuditQuery(Optional.of(bob.id()), Optional.of(AuditAction.TABLE_COMMIT),
        Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
        OptionalLong.empty(), 10))).containsExactly("ns.t3", "ns.t1");
    assertThat(list(new AuditQuery(Optional.empty(), Optional.empty(),
        Optional.of(AuditTarget.Kind.NAMESPACE), Optional.empty(), Optional.empty(),
        Optional.empty(), OptionalLong.empty(), 10))).containsExactly("ns");
    assertThat(list(new AuditQuery(Optional.empty(), Optional.empty(), Optional.empty(),
        Optional.of("ns.t2"), Optional.empty(), Optional.empty(), OptionalLong.empty(), 10)))
        .containsExactly("ns.t2");
    // since is inclusive, until exclusive.
    assertThat(list(new AuditQuery(Optional.empty(), Optional.of(AuditAction.TABLE_COMMIT),
        Optional.empty(), Optional.empty(), Optional.of(START.plusSeconds(2)),
        Optional.of(START.plusSeconds(4)), OptionalLong.empty(), 10)))
        .containsExactly("ns.t3", "ns.t2");
  }

  @Test
  void anOrgSeesOnlyItsOwnEntries() {
    Principal ada = fixture.user("ada");
    appendCommits(ada, ada);
    UUID other = fixture.newOrg().id();
    audit().append(other, START, ada, "elsewhere", List.of(
        AuditedChange.of(AuditAction.TABLE_COMMIT, AuditTarget.Kind.TABLE, "ns.theirs")));
    assertThat(audit().list(other, AuditQuery.all()).entries())
        .extracting(AuditEntry::targetName).containsExactly("ns.theirs");
    assertThat(list(AuditQuery.all())).hasSize(5).doesNotContain("ns.theirs");
  }

  @Test
  void anEntryRollsBackWithItsChange() {
    Principal ada = fixture.user("ada");
    assertThatThrownBy(() -> ports().unitOfWork().inTransaction(() -> {
      audit().append(fixture.org.id(), START, ada, "r", List.of(AuditedChange.of(
          AuditAction.NAMESPACE_CREATE, AuditTarget.Kind.NAMESPACE, "gone")));
      throw new IllegalStateException("the change failed");
    })).hasMessage("the change failed");
    assertThat(audit().list(fixture.org.id(), AuditQuery.all()).entries()).isEmpty();
  }

  /** Five commits of tables ns.t0..ns.t4, one second apart, alternating between two actors. */
  private void appendCommits(Principal even, Principal odd) {
    for (int i = 0; i < 5; i++) {
      audit().append(fixture.org.id(), START.plusSeconds(i), i % 2 == 0 ? even : odd,
          "request-" + i, List.of(AuditedChange.of(AuditAction.TABLE_COMMIT,
              AuditTarget.Kind.TABLE, "ns.t" + i)
              .with("updates", List.of("add-snapshot")).with("n", i)));
    }
  }

  private List<String> list(AuditQuery query) {
    return audit().list(fixture.org.id(), query).entries().stream()
        .map(AuditEntry::targetName).toList();
  }

  private static AuditQuery page(OptionalLong before, int limit) {
    return new AuditQuery(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
        Optional.empty(), Optional.empty(), before, limit);
  }

  @Test
  void theFeedKnowsTheNamespaceAndTableOfAChangeByIdentity() {
    Namespace old = fixture.namespace("ledger");
    CatalogObject entries = fixture.table(old, "entries");
    record(AuditedChange.of(AuditAction.TABLE_COMMIT, AuditTarget.Kind.TABLE, "ledger.entries")
        .with("namespace", "ledger"));
    ports().unitOfWork().inTransaction(() -> {
      ports().objects().delete(entries.id());
      ports().namespaceDeletes().markDeleted(old.id(), fixture.now,
          fixture.now.plusSeconds(60), false, true);
      record(AuditedChange.of(AuditAction.NAMESPACE_DELETE, AuditTarget.Kind.NAMESPACE,
          "ledger"));
    });
    Namespace again = fixture.namespace("Ledger");
    record(AuditedChange.of(AuditAction.NAMESPACE_CREATE, AuditTarget.Kind.NAMESPACE, "Ledger"));
    record(AuditedChange.of(AuditAction.TABLE_COMMIT, AuditTarget.Kind.TABLE, "other.t")
        .with("namespace", "other"));

    List<ChangeEvent> events = ports().changeFeed().after(fixture.org.id(), FeedPosition.START,
        ChangeFilter.ALL, START.minusSeconds(1), 10);
    assertThat(events).extracting(ChangeEvent::namespaceId).containsExactly(
        Optional.of(old.id()), Optional.of(old.id()), Optional.of(again.id()), Optional.empty());
    assertThat(events).extracting(ChangeEvent::objectId).containsExactly(
        Optional.of(entries.id()), Optional.empty(), Optional.empty(), Optional.empty());
  }

  private void record(AuditedChange change) {
    ports().unitOfWork().inTransaction(() -> audit().append(fixture.org.id(), START,
        fixture.user("u" + UUID.randomUUID().toString().substring(0, 8)),
        "request", List.of(change)));
  }
}
