package io.floe.application.service.table;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.security.OrgContext;
import io.floe.application.testbed.Testbed;
import io.floe.domain.Action;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import io.floe.domain.Role;
import io.floe.domain.Visibility;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.metrics.ImmutableScanReport;
import org.apache.iceberg.metrics.ScanMetrics;
import org.apache.iceberg.metrics.ScanMetricsResult;
import org.apache.iceberg.rest.requests.ReportMetricsRequest;
import org.junit.jupiter.api.Test;

/**
 * Engines' metrics reports on the fakes: accepted for a table the caller may read, whatever it
 * may write; for anyone else, and for a view or a missing table, there is no such table, so a
 * report cannot probe what exists.
 */
class ReportMetricsServiceTest {
  private final Testbed bed = new Testbed();
  private final ReportMetricsService metrics = new ReportMetricsService(bed.locator(),
      bed.policy());
  private final Namespace sales = bed.namespace("sales", Visibility.PRIVATE);
  private final CatalogObject orders = bed.table(sales, "orders");
  private final OrgContext reader = bed.member("reader", Role.MEMBER);

  private static ReportMetricsRequest scan(String table) {
    return ReportMetricsRequest.of(ImmutableScanReport.builder().tableName(table).snapshotId(1L)
        .filter(Expressions.alwaysTrue()).schemaId(0).projectedFieldIds(List.of(1))
        .projectedFieldNames(List.of("id"))
        .scanMetrics(ScanMetricsResult.fromScanMetrics(ScanMetrics.noop())).build());
  }

  @Test
  void aReaderReportsAndAnyoneWhoCannotSeeTheTableIsToldItDoesNotExist() {
    bed.grant(reader.caller().principal().id(), sales, Optional.of(orders), Action.READ);
    OrgContext stranger = bed.member("stranger", Role.MEMBER);
    bed.view(sales, "daily");

    assertThatCode(() -> metrics.reportMetrics(reader, TableIdentifier.of("sales", "orders"),
        scan("sales.orders"))).doesNotThrowAnyException();
    assertThatThrownBy(() -> metrics.reportMetrics(stranger,
        TableIdentifier.of("sales", "orders"), scan("sales.orders")))
        .isInstanceOf(NoSuchTableException.class);
    assertThatThrownBy(() -> metrics.reportMetrics(bed.admin,
        TableIdentifier.of("sales", "daily"), scan("sales.daily")))
        .isInstanceOf(NoSuchTableException.class);
    assertThatThrownBy(() -> metrics.reportMetrics(bed.admin,
        TableIdentifier.of("sales", "missing"), scan("sales.missing")))
        .isInstanceOf(NoSuchTableException.class);
  }
}
