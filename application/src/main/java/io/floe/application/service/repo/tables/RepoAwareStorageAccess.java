package io.floe.application.service.repo.tables;

import io.floe.application.port.in.storage.StorageAccessUseCase;
import io.floe.application.port.out.RepoTablePointers.RepoTable;
import io.floe.application.port.out.RequestSigner;
import io.floe.application.security.OrgContext;
import io.floe.application.service.catalog.TableLocations;
import io.floe.application.service.storage.TableStorageAccess;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.requests.RemoteSignRequest;
import org.apache.iceberg.rest.responses.ImmutableLoadCredentialsResponse;
import org.apache.iceberg.rest.responses.LoadCredentialsResponse;
import org.apache.iceberg.rest.responses.RemoteSignResponse;

/**
 * Credentials and signatures for plain tables as before; for a repo table, scoped to the table's
 * directory, read-write on a branch and read-only on a fixed version.
 */
public final class RepoAwareStorageAccess implements StorageAccessUseCase {
  private final StorageAccessUseCase plain;
  private final RepoRouting routing;
  private final TableStorageAccess access;
  private final RequestSigner signer;

  public RepoAwareStorageAccess(StorageAccessUseCase plain, RepoRouting routing,
      TableStorageAccess access, RequestSigner signer) {
    this.plain = plain;
    this.routing = routing;
    this.access = access;
    this.signer = signer;
  }

  @Override
  public LoadCredentialsResponse credentials(OrgContext context, TableIdentifier identifier) {
    return routing.route(context, identifier.namespace(),
        () -> plain.credentials(context, identifier),
        repo -> {
          RepoTable table = RepoTableReads.table(repo, identifier);
          return ImmutableLoadCredentialsResponse.builder()
              .addAllCredentials(access.vendedCredential(context, repo.bucket(),
                  TableLocations.pathIn(repo.bucket(), table.location()),
                  RepoTableReads.access(repo)).stream().toList())
              .build();
        });
  }

  @Override
  public RemoteSignResponse sign(OrgContext context, TableIdentifier identifier,
      RemoteSignRequest request) {
    return routing.route(context, identifier.namespace(),
        () -> plain.sign(context, identifier, request),
        repo -> signer.sign(repo.bucket(), TableLocations.pathIn(repo.bucket(),
            RepoTableReads.table(repo, identifier).location()), RepoTableReads.access(repo),
            request));
  }
}
