package io.floe.adapters.persistence.jooq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.adapters.persistence.DatabaseSettings;
import io.floe.adapters.persistence.TestDatabases;
import io.floe.application.model.AuditAction;
import io.floe.application.model.AuditTarget;
import io.floe.application.model.AuditedChange;
import io.floe.application.model.ChangeEvent;
import io.floe.application.model.ChangeFilter;
import io.floe.application.model.FeedPosition;
import io.floe.domain.Org;
import io.floe.domain.OrgName;
import io.floe.domain.Principal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The change feed on PostgreSQL: what committed, in an order a reader can follow without ever
 * passing over an event that commits later with a lower id; nothing that rolled back.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JooqChangeFeedTest {
  private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");
  private final Principal ada = new Principal(UUID.randomUUID(), Principal.Kind.USER, "ada");
  private final ExecutorService threads = Executors.newSingleThreadExecutor();
  private Database database;
  private JooqAuditLog audit;
  private JooqChangeFeed feed;

  @BeforeAll
  void open() {
    DatabaseSettings settings = TestDatabases.freshDatabase(TestDatabases.embeddedServer());
    database = Database.open(settings, 4);
    audit = new JooqAuditLog(database);
    feed = new JooqChangeFeed(database);
  }

  @AfterAll
  void close() {
    threads.shutdownNow();
    database.close();
  }

  private UUID org() {
    UUID id = UUID.randomUUID();
    new JooqOrgStore(database, TestDatabases.cipher())
        .insertOrg(new Org(id, new OrgName("o" + id.toString().substring(0, 8)), true));
    return id;
  }

  private void commit(UUID org, String request, String... tables) {
    database.inTransaction(() -> append(org, request, tables));
  }

  private void append(UUID org, String request, String... tables) {
    List<AuditedChange> changes = new ArrayList<>();
    for (String table : tables) {
      changes.add(AuditedChange.of(AuditAction.TABLE_COMMIT, AuditTarget.Kind.TABLE,
          "sales." + table).with("namespace", "sales"));
    }
    audit.append(org, NOW, ada, request, changes);
  }

  private List<ChangeEvent> after(UUID org, FeedPosition position) {
    return feed.after(org, position, ChangeFilter.ALL, NOW.minusSeconds(60), 100);
  }

  private static List<String> targets(List<ChangeEvent> events) {
    return events.stream().map(event -> event.entry().targetName()).toList();
  }

  @Test
  void aReaderNeverPassesOverAnEventWhoseTransactionCommitsLater() throws Exception {
    UUID org = org();
    CountDownLatch appended = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    // The slow transaction takes the lower id, then holds back its commit.
    Future<?> slow = threads.submit(() -> database.inTransaction(() -> {
      append(org, "slow", "early");
      appended.countDown();
      await(release);
    }));
    assertThat(appended.await(10, TimeUnit.SECONDS)).isTrue();
    commit(org, "fast", "late");

    // "late" is committed, but a reader who took it now would pass over "early" for good.
    List<ChangeEvent> whileRunning = after(org, FeedPosition.START);
    assertThat(whileRunning).isEmpty();

    release.countDown();
    slow.get(10, TimeUnit.SECONDS);
    List<ChangeEvent> events = after(org, FeedPosition.START);
    assertThat(targets(events)).containsExactly("sales.early", "sales.late");
    assertThat(events.get(0).position()).isLessThan(events.get(1).position());
    assertThat(after(org, events.get(0).position())).extracting(e -> e.entry().targetName())
        .containsExactly("sales.late");
  }

  @Test
  void aTransactionThatRolledBackLeavesNoEvent() {
    UUID org = org();
    assertThatThrownBy(() -> database.inTransaction(() -> {
      append(org, "lost", "lost");
      throw new IllegalStateException("the change failed");
    })).isInstanceOf(IllegalStateException.class);
    commit(org, "kept", "kept");
    assertThat(targets(after(org, FeedPosition.START))).containsExactly("sales.kept");
  }

  @Test
  void eventsCarryIdsCountsAndMatchFiltersIgnoringCase() {
    UUID org = org();
    commit(org, "multi", "a", "b");
    commit(org, "single", "c");
    List<ChangeEvent> events = after(org, FeedPosition.START);
    assertThat(events).extracting(ChangeEvent::requestEventCount).containsExactly(2, 2, 1);
    assertThat(events).extracting(ChangeEvent::eventId).doesNotHaveDuplicates();
    assertThat(after(org, FeedPosition.START)).extracting(ChangeEvent::eventId)
        .containsExactlyElementsOf(events.stream().map(ChangeEvent::eventId).toList());
    ChangeFilter salesC = new ChangeFilter(Set.of("table.commit"), Set.of("table"), Set.of(),
        Set.of("SALES.C"), Optional.empty());
    assertThat(targets(feed.after(org, FeedPosition.START, salesC, NOW.minusSeconds(60), 10)))
        .containsExactly("sales.c");
    ChangeFilter inSales = new ChangeFilter(Set.of(), Set.of(), Set.of("Sales"), Set.of(),
        Optional.empty());
    assertThat(feed.after(org, FeedPosition.START, inSales, NOW.minusSeconds(60), 2)).hasSize(2);
    assertThat(feed.after(org, FeedPosition.START, ChangeFilter.ALL, NOW.plusSeconds(1), 10))
        .isEmpty();
    assertThat(after(org(), FeedPosition.START)).isEmpty();
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
