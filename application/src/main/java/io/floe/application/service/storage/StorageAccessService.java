package io.floe.application.service.storage;

import io.floe.application.port.in.storage.StorageAccessUseCase;
import io.floe.application.port.out.RequestSigner;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.application.service.catalog.CatalogLocator;
import io.floe.application.service.catalog.ResolvedTable;
import io.floe.domain.Action;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.requests.RemoteSignRequest;
import org.apache.iceberg.rest.responses.ImmutableLoadCredentialsResponse;
import org.apache.iceberg.rest.responses.LoadCredentialsResponse;
import org.apache.iceberg.rest.responses.RemoteSignResponse;

/**
 * Credentials and signatures for a table's files, for callers who may read the table: scoped to
 * the table's directory, read-write for those who may write to it (never on a fixed version of a
 * repo).
 */
public final class StorageAccessService implements StorageAccessUseCase {
  private final CatalogLocator locator;
  private final AccessPolicy policy;
  private final TableStorageAccess access;
  private final RequestSigner signer;

  public StorageAccessService(CatalogLocator locator, AccessPolicy policy,
      TableStorageAccess access, RequestSigner signer) {
    this.locator = locator;
    this.policy = policy;
    this.access = access;
    this.signer = signer;
  }

  @Override
  public LoadCredentialsResponse credentials(OrgContext context, TableIdentifier identifier) {
    ResolvedTable table = readable(context, identifier);
    // Local buckets need no credentials: the list is empty for them.
    return ImmutableLoadCredentialsResponse.builder()
        .addAllCredentials(access.vendedCredential(context, identifier, table.bucket(), table.path(),
            access.accessFor(context, table)).stream().toList())
        .build();
  }

  @Override
  public RemoteSignResponse sign(OrgContext context, TableIdentifier identifier,
      RemoteSignRequest request) {
    ResolvedTable table = readable(context, identifier);
    return signer.sign(table.bucket(), table.path(), access.accessFor(context, table), request);
  }

  private ResolvedTable readable(OrgContext context, TableIdentifier identifier) {
    ResolvedTable table = locator.table(context, identifier);
    table.require(policy, context, Action.READ);
    return table;
  }
}
