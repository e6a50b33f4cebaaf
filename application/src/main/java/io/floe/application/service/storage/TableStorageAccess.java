package io.floe.application.service.storage;

import io.floe.application.model.AccessDelegation;
import io.floe.application.port.out.CredentialVendor;
import io.floe.application.port.out.CredentialVendor.Access;
import io.floe.application.port.out.RequestSigner;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.application.service.catalog.ResolvedTable;
import io.floe.domain.Action;
import io.floe.domain.BucketConfig;
import io.floe.domain.StoragePath;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.ResourcePaths;
import org.apache.iceberg.rest.credentials.Credential;
import org.apache.iceberg.rest.credentials.ImmutableCredential;
import org.apache.iceberg.rest.responses.LoadTableResponse;

/**
 * What an engine gets to reach one table's files: vended credentials scoped to the table, or the
 * configuration that makes it ask the catalog to sign its requests. Read-write only for callers
 * who may write to the table.
 */
public final class TableStorageAccess {
  private final CredentialVendor vendor;
  private final RequestSigner signer;
  private final AccessPolicy policy;
  private final LocalBucketJobAccess jobs;

  public TableStorageAccess(CredentialVendor vendor, RequestSigner signer, AccessPolicy policy) {
    this(vendor, signer, policy, LocalBucketJobAccess.NONE);
  }

  /** {@code jobs}: what maintenance jobs outside the server get for tables on local buckets. */
  public TableStorageAccess(CredentialVendor vendor, RequestSigner signer, AccessPolicy policy,
      LocalBucketJobAccess jobs) {
    this.vendor = vendor;
    this.signer = signer;
    this.policy = policy;
    this.jobs = jobs;
  }

  /**
   * What the caller's storage credentials may do with the table's files: read-write for those
   * who may write to the table, read-only for the rest.
   */
  public Access accessFor(OrgContext context, ResolvedTable table) {
    return table.allows(policy, context, Action.WRITE) ? Access.READ_WRITE : Access.READ_ONLY;
  }

  /**
   * Adds what the engine asked for to reach the table's files: vended credentials when asked
   * for and the bucket can vend them; otherwise, for an engine that asked for any delegation,
   * remote signing where the bucket allows it (S3-compatible stores without STS). A maintenance
   * job asking for vended credentials on a local bucket gets keys of Floe's S3 endpoint for the
   * table's prefix ({@link LocalBucketJobAccess}).
   */
  public LoadTableResponse withStorageAccess(OrgContext context, TableIdentifier identifier,
      LoadTableResponse response, BucketConfig bucket, StoragePath location, Access access,
      Set<AccessDelegation> delegation) {
    Granted granted = grant(context, identifier, bucket, location, access, delegation);
    if (granted.config().isEmpty() && granted.credentials().isEmpty()) {
      return response;
    }
    return LoadTableResponse.builder()
        .withTableMetadata(response.tableMetadata())
        .addAllConfig(response.config())
        .addAllCredentials(response.credentials())
        .addAllConfig(granted.config())
        .addAllCredentials(granted.credentials())
        .build();
  }

  /** Storage access for an engine: configuration and credentials a table's response carries. */
  public record Granted(Map<String, String> config, List<Credential> credentials) {}

  /** What {@link #withStorageAccess} adds to a response, on its own. */
  public Granted grant(OrgContext context, TableIdentifier identifier, BucketConfig bucket,
      StoragePath location, Access access, Set<AccessDelegation> delegation) {
    if (delegation.contains(AccessDelegation.VENDED_CREDENTIALS)) {
      Optional<Map<String, String>> jobKeys = jobs.config(context.caller(), bucket, location,
          access);
      if (jobKeys.isPresent()) {
        return new Granted(jobKeys.get(), List.of());
      }
    }
    Optional<Credential> credential = delegation.contains(AccessDelegation.VENDED_CREDENTIALS)
        ? vendedCredential(context, identifier, bucket, location, access) : Optional.empty();
    if (credential.isPresent()) {
      return new Granted(credential.get().config(), List.of(credential.get()));
    }
    if (delegation.isEmpty() || !signer.canSign(bucket)) {
      return new Granted(Map.of(), List.of());
    }
    return new Granted(signer.remoteSigningConfig(bucket, ResourcePaths
        .forCatalogProperties(Map.of("prefix", context.org().name().value()))
        .remoteSign(identifier)), List.of());
  }

  /**
   * Credentials for the table's directory, named by its URI as engines match it, with the
   * properties that make the engine's FileIO renew them through the table's credentials route
   * before they expire (that route checks the caller's grant again on every call).
   */
  public Optional<Credential> vendedCredential(OrgContext context, TableIdentifier identifier,
      BucketConfig bucket, StoragePath location, Access access) {
    return vendor.vend(bucket, location, access, context.caller().principal().name())
        .map(vended -> ImmutableCredential.builder()
            .prefix(bucket.uriOf(location))
            .config(vended.config())
            .putAllConfig(vendor.refreshConfig(bucket, credentialsEndpoint(context, identifier)))
            .build());
  }

  /** The table's credentials route, relative to the catalog's URI as Iceberg clients take it. */
  private static String credentialsEndpoint(OrgContext context, TableIdentifier identifier) {
    return ResourcePaths.forCatalogProperties(Map.of("prefix", context.org().name().value()))
        .table(identifier) + "/credentials";
  }
}
