package io.floe.application.service.work;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.model.TablePreview;
import io.floe.application.model.TooBusyException;
import io.floe.application.security.OrgContext;
import io.floe.application.service.table.BudgetedTablePreview;
import io.floe.application.testbed.Testbed;
import io.floe.domain.Org;
import io.floe.domain.OrgName;
import io.floe.domain.Role;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Test;

/**
 * One org's heavy work is bounded by its own budget and a total: the org past its budget is
 * refused at once and reaches nothing, while another org still gets a place.
 */
class OrgWorkBudgetTest {
  private static final TableIdentifier TABLE = TableIdentifier.of("ns", "t");
  private static final TablePreview EMPTY = new TablePreview(List.of(), List.of(),
      Optional.empty(), Optional.empty(), 0, Optional.empty());

  private final OrgContext orgA = new Testbed().member("alice", Role.MEMBER);
  private final OrgContext orgB = new OrgContext(orgA.caller(),
      new Org(UUID.randomUUID(), new OrgName("other-org"), true), orgA.membership());

  @Test
  void anOrgPastItsBudgetIsRefusedWhileAnotherOrgPreviews() throws Exception {
    CountDownLatch inside = new CountDownLatch(2);
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger reached = new AtomicInteger();
    BudgetedTablePreview previews = new BudgetedTablePreview((context, table) -> {
      reached.incrementAndGet();
      if (context.org().equals(orgA.org())) {
        inside.countDown();
        await(release);
      }
      return EMPTY;
    }, new OrgWorkBudget(2, 4));
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try {
      List<Future<TablePreview>> held = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        held.add(threads.submit(() -> previews.preview(orgA, TABLE)));
      }
      assertThat(inside.await(30, TimeUnit.SECONDS)).isTrue();
      assertThatThrownBy(() -> previews.preview(orgA, TABLE))
          .isInstanceOf(TooBusyException.class).hasMessageContaining("This org already runs 2");
      assertThat(reached).hasValue(2);
      assertThat(previews.preview(orgB, TABLE)).isSameAs(EMPTY);
      release.countDown();
      for (Future<TablePreview> preview : held) {
        assertThat(preview.get(30, TimeUnit.SECONDS)).isSameAs(EMPTY);
      }
      assertThat(previews.preview(orgA, TABLE)).isSameAs(EMPTY);
    } finally {
      release.countDown();
      threads.shutdownNow();
    }
  }

  @Test
  void theTotalBoundsEveryOrgTogether() {
    OrgWorkBudget budget = new OrgWorkBudget(2, 3);
    UUID c = UUID.randomUUID();
    try (var a1 = budget.enter(orgA.org().id(), "preview");
        var a2 = budget.enter(orgA.org().id(), "preview");
        var b1 = budget.enter(orgB.org().id(), "preview")) {
      assertThatThrownBy(() -> budget.enter(c, "maintenance run"))
          .isInstanceOf(TooBusyException.class)
          .hasMessageContaining("The server already runs 3")
          .hasMessageContaining("maintenance run");
    }
    assertThat(budget.running(orgA.org().id())).isZero();
    budget.enter(c, "preview").close();
  }

  @Test
  void aPlaceIsGivenBackOnceWhateverTheWorkDid() {
    OrgWorkBudget budget = new OrgWorkBudget(1, 1);
    BudgetedTablePreview failing = new BudgetedTablePreview((context, table) -> {
      throw new IllegalStateException("unreadable");
    }, budget);
    assertThatThrownBy(() -> failing.preview(orgA, TABLE))
        .isInstanceOf(IllegalStateException.class);
    OrgWorkBudget.Permit permit = budget.enter(orgA.org().id(), "preview");
    permit.close();
    permit.close(); // a second close gives back nothing more
    try (var only = budget.enter(orgA.org().id(), "preview")) {
      assertThatThrownBy(() -> budget.enter(orgB.org().id(), "preview"))
          .isInstanceOf(TooBusyException.class);
    }
  }

  @Test
  void aBudgetNeedsAPlacePerOrgAndAtLeastAsManyInTotal() {
    assertThatThrownBy(() -> new OrgWorkBudget(0, 4)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new OrgWorkBudget(3, 2)).isInstanceOf(IllegalArgumentException.class);
    assertThat(OrgWorkBudget.withDefaults(2).total()).isGreaterThanOrEqualTo(4);
  }

  private static void await(CountDownLatch latch) {
    try {
      if (!latch.await(30, TimeUnit.SECONDS)) {
        throw new AssertionError("never released");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
