package io.floe.application.port.in.table;

import io.floe.application.model.TablePreview;
import io.floe.application.security.OrgContext;
import org.apache.iceberg.catalog.TableIdentifier;

/** The first rows of a table the caller may read, read by the server. */
public interface PreviewTableUseCase {
  TablePreview preview(OrgContext context, TableIdentifier identifier);
}
