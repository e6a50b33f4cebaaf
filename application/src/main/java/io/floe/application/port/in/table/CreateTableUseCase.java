package io.floe.application.port.in.table;

import io.floe.application.model.AccessDelegation;
import io.floe.application.security.OrgContext;
import java.util.Set;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.rest.requests.CreateTableRequest;
import org.apache.iceberg.rest.responses.LoadTableResponse;

/**
 * Creates a table at a location the server chooses, or with {@code stageCreate} only returns the
 * metadata it would have (the table is then created by its first commit).
 */
public interface CreateTableUseCase {
  /** The table property that puts one table on another bucket of the org. */
  String BUCKET_PROPERTY = "floe.bucket";

  /** {@code delegation} is the storage access the engine asked for. */
  LoadTableResponse createTable(OrgContext context, Namespace namespace,
      CreateTableRequest request, Set<AccessDelegation> delegation);
}
