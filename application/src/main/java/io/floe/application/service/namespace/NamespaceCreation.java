package io.floe.application.service.namespace;

import io.floe.application.port.out.IdGenerator;
import io.floe.application.port.out.NamespaceStore;
import io.floe.application.port.out.OrgStore;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.application.service.lifecycle.PrefixOwnerCreation;
import io.floe.domain.BucketConfig;
import io.floe.domain.CatalogName;
import io.floe.domain.MetadataValue;
import io.floe.domain.Namespace;
import io.floe.domain.PrefixClaim;
import io.floe.domain.PrefixGenerator;
import io.floe.domain.Visibility;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * Creates namespaces: chooses the bucket and the prefix, then runs the prefix owner's three
 * crash-safe steps ({@link PrefixOwnerCreation}). Both the Iceberg REST catalog and the management
 * API create namespaces through here.
 */
public final class NamespaceCreation {
  /** What a new namespace is made of, whichever API asked for it. */
  public record Request(CatalogName name, Optional<CatalogName> bucketNickname,
      Map<String, String> properties, Optional<String> description,
      Map<String, MetadataValue> metadata, Visibility visibility) {
    public Request {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(bucketNickname, "bucketNickname");
      properties = Map.copyOf(properties);
      NamespaceProperties.requireSettable(properties.keySet());
      Objects.requireNonNull(description, "description");
      metadata = Map.copyOf(metadata);
      Objects.requireNonNull(visibility, "visibility");
    }
  }

  private final OrgStore orgs;
  private final NamespaceStore namespaces;
  private final PrefixOwnerCreation creation;
  private final IdGenerator ids;
  private final Clock clock;
  private final AccessPolicy policy;
  private final PrefixGenerator prefixes;

  public NamespaceCreation(OrgStore orgs, NamespaceStore namespaces, PrefixOwnerCreation creation,
      IdGenerator ids, Clock clock, AccessPolicy policy) {
    this.orgs = orgs;
    this.namespaces = namespaces;
    this.creation = creation;
    this.ids = ids;
    this.clock = clock;
    this.policy = policy;
    this.prefixes = new PrefixGenerator(ids::randomBelow);
  }

  /** Whether the caller may create namespaces in its org at all: checked before anything else. */
  public void authorize(OrgContext context) {
    context.org().requireIceberg();
    policy.requireAdmin(context, "create namespaces");
  }

  /**
   * Creates the namespace; {@code result} makes what the caller's API answers from the new
   * namespace and its bucket, recorded with the namespace for a request sent with an idempotency
   * key.
   */
  public <R> R create(OrgContext context, Request request,
      BiFunction<Namespace, BucketConfig, R> result) {
    authorize(context);
    BucketConfig bucket = chooseBucket(context, request.bucketNickname());
    Instant now = clock.instant();
    Namespace namespace = new Namespace(ids.newId(), context.org().id(), request.name(),
        bucket.id(), prefixes.namespacePrefix(bucket, request.name()), request.properties(),
        request.description(), request.metadata(), request.visibility(), now, now,
        Optional.empty());
    R answer = result.apply(namespace, bucket);
    creation.create(context, new PrefixOwnerCreation.NewOwner(
            new PrefixClaim.Owner(PrefixClaim.OwnerKind.NAMESPACE, namespace.id()),
            namespace.orgId(), namespace.name(), bucket, namespace.prefix(), now, true),
        () -> { }, () -> namespaces.insert(namespace), answer);
    return answer;
  }

  private BucketConfig chooseBucket(OrgContext context, Optional<CatalogName> nickname) {
    BucketConfig bucket = nickname
        .map(name -> orgs.bucket(context.org().id(), name).orElseThrow(() ->
            new BadRequestException("Bucket configuration '%s' does not exist in org '%s'", name,
                context.org().name())))
        .orElseGet(() -> orgs.defaultBucket(context.org().id()).orElseThrow(() ->
            new BadRequestException("Org '%s' has no default bucket configuration; name one",
                context.org().name())));
    bucket.requireIcebergSupport();
    return bucket;
  }
}
