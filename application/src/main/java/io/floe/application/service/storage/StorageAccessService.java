package io.floe.application.service.storage;

import io.floe.application.port.in.storage.StorageAccessUseCase;
import io.floe.application.port.out.RequestSigner;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.application.service.catalog.CatalogLocator;
import io.floe.application.service.catalog.ResolvedObject;
import io.floe.domain.Action;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.requests.RemoteSignRequest;
import org.apache.iceberg.rest.responses.ImmutableLoadCredentialsResponse;
import org.apache.iceberg.rest.responses.LoadCredentialsResponse;
import org.apache.iceberg.rest.responses.RemoteSignResponse;

/** Credentials and signatures for a table's files, for callers who may read the table. */
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
    ResolvedObject table = readable(context, identifier);
    // Local buckets need no credentials: the list is empty for them.
    return ImmutableLoadCredentialsResponse.builder()
        .addAllCredentials(access.vendedCredential(context, table.bucket(),
            table.object().location().path(), access.accessFor(context, table)).stream().toList())
        .build();
  }

  @Override
  public RemoteSignResponse sign(OrgContext context, TableIdentifier identifier,
      RemoteSignRequest request) {
    ResolvedObject table = readable(context, identifier);
    return signer.sign(table.bucket(), table.object().location().path(),
        access.accessFor(context, table), request);
  }

  private ResolvedObject readable(OrgContext context, TableIdentifier identifier) {
    ResolvedObject table = locator.table(context, identifier);
    policy.require(context, Action.READ, table.namespace(), table.object());
    return table;
  }
}
