package io.floe.application.port.in.table;

import io.floe.application.security.OrgContext;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.requests.ReportMetricsRequest;

/** Accepts an engine's scan or commit report about a table it may read. */
public interface ReportMetricsUseCase {
  void reportMetrics(OrgContext context, TableIdentifier identifier, ReportMetricsRequest request);
}
