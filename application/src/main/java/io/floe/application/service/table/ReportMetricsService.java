package io.floe.application.service.table;

import io.floe.application.port.in.table.ReportMetricsUseCase;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.application.service.catalog.CatalogLocator;
import io.floe.domain.Action;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.requests.ReportMetricsRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Accepts engines' scan and commit reports about tables they may read, and logs them at debug. */
public final class ReportMetricsService implements ReportMetricsUseCase {
  private static final Logger LOG = LoggerFactory.getLogger(ReportMetricsService.class);

  private final CatalogLocator locator;
  private final AccessPolicy policy;

  public ReportMetricsService(CatalogLocator locator, AccessPolicy policy) {
    this.locator = locator;
    this.policy = policy;
  }

  @Override
  public void reportMetrics(OrgContext context, TableIdentifier identifier,
      ReportMetricsRequest request) {
    locator.table(context, identifier).require(policy, context, Action.READ);
    // Engines send one per scan and commit: worth keeping at hand, not in every log.
    LOG.debug("metrics for {}.{}: {} {}", context.org().name(), identifier, request.reportType(),
        request.report());
  }
}
