package io.floe.application.port.in.storage;

import io.floe.application.security.OrgContext;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.requests.RemoteSignRequest;
import org.apache.iceberg.rest.responses.LoadCredentialsResponse;
import org.apache.iceberg.rest.responses.RemoteSignResponse;

/**
 * How engines reach a table's files without holding the bucket's own keys: credentials scoped to
 * the table, or signatures for single requests inside it.
 */
public interface StorageAccessUseCase {
  /** Fresh credentials for the table, read-only or read-write as the caller's grants allow. */
  LoadCredentialsResponse credentials(OrgContext context, TableIdentifier identifier);

  /**
   * Signs a storage request an engine will make for the table (remote signing), if it stays
   * inside the table and the caller may do what it does; otherwise a 403.
   */
  RemoteSignResponse sign(OrgContext context, TableIdentifier identifier,
      RemoteSignRequest request);
}
