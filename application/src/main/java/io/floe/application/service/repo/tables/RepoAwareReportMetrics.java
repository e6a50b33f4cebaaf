package io.floe.application.service.repo.tables;

import io.floe.application.port.in.table.ReportMetricsUseCase;
import io.floe.application.security.OrgContext;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.requests.ReportMetricsRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Accepts engines' reports about plain tables as before, and about repo tables. */
public final class RepoAwareReportMetrics implements ReportMetricsUseCase {
  private static final Logger LOG = LoggerFactory.getLogger(RepoAwareReportMetrics.class);

  private final ReportMetricsUseCase plain;
  private final RepoRouting routing;

  public RepoAwareReportMetrics(ReportMetricsUseCase plain, RepoRouting routing) {
    this.plain = plain;
    this.routing = routing;
  }

  @Override
  public void reportMetrics(OrgContext context, TableIdentifier identifier,
      ReportMetricsRequest request) {
    routing.run(context, identifier.namespace(),
        () -> plain.reportMetrics(context, identifier, request),
        repo -> {
          RepoTableReads.table(repo, identifier);
          LOG.info("metrics for {}.{}: {} {}", context.org().name(), identifier,
              request.reportType(), request.report());
        });
  }
}
