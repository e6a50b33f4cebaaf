package io.floe.application.service.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.model.AuditAction;
import io.floe.application.model.AuditQuery;
import io.floe.application.model.AuditTarget;
import io.floe.application.security.OrgContext;
import io.floe.application.service.table.DropTableService;
import io.floe.application.testbed.Testbed;
import io.floe.domain.Role;
import io.floe.domain.Visibility;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.junit.jupiter.api.Test;

/** The audit log is read by the org's admins only, and only the org's own entries. */
class AuditLogServiceTest {
  private final Testbed bed = new Testbed();
  private final AuditLogService audit = new AuditLogService(bed.store.audit(), bed.policy());
  private final OrgContext member = bed.member("max", Role.MEMBER);

  @Test
  void anAdminReadsWhatWasDoneNewestFirst() {
    var sales = bed.namespace("sales", Visibility.PRIVATE);
    bed.entry(sales, "a", "s3://data/a/v1.json");
    bed.entry(sales, "b", "s3://data/b/v1.json");
    DropTableService drop = new DropTableService(bed.locator(), bed.policy(),
        bed.store.objects(), bed.publisher());
    drop.dropTable(bed.admin, TableIdentifier.of("sales", "a"), false);
    bed.clock.advance(java.time.Duration.ofSeconds(1));
    drop.dropTable(bed.admin, TableIdentifier.of("sales", "b"), false);

    var page = audit.list(bed.admin, AuditQuery.all());
    var filtered = audit.list(bed.admin, new AuditQuery(Optional.empty(),
        Optional.of(AuditAction.TABLE_DROP), Optional.of(AuditTarget.Kind.TABLE),
        Optional.of("sales.a"), Optional.empty(), Optional.empty(), OptionalLong.empty(), 10));

    assertThat(page.entries()).extracting(entry -> entry.targetName())
        .containsExactly("sales.b", "sales.a");
    assertThat(filtered.entries()).singleElement()
        .satisfies(entry -> assertThat(entry.targetName()).isEqualTo("sales.a"));
  }

  @Test
  void aMemberMayNotReadTheLog() {
    assertThatThrownBy(() -> audit.list(member, AuditQuery.all()))
        .isInstanceOf(ForbiddenException.class);
  }
}
