package io.floe.application.service;

import io.floe.application.port.out.IdGenerator;
import io.floe.application.port.out.LifecycleProbe;
import io.floe.application.port.out.NameRegistry;
import io.floe.application.port.out.NamespaceStore;
import io.floe.application.port.out.OrgStore;
import io.floe.application.port.out.PendingCreationStore;
import io.floe.application.port.out.PendingCreationStore.Pending;
import io.floe.application.port.out.UnitOfWork;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.application.service.change.ChangePublisher;
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
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;

/**
 * Creates namespaces in three steps, so that a failure or a crash at any point leaves either a
 * whole namespace or, once repaired, nothing: (1) one transaction reserves the name, claims the
 * prefix and journals the creation; (2) the marker is written; (3) one transaction inserts the
 * namespace and removes the journal row. A failure undoes steps 1 and 2 at once; a crash leaves
 * the journal row for {@link CreationRepair}.
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
      Objects.requireNonNull(description, "description");
      metadata = Map.copyOf(metadata);
      Objects.requireNonNull(visibility, "visibility");
    }
  }

  private final OrgStore orgs;
  private final NamespaceStore namespaces;
  private final NameRegistry names;
  private final PrefixClaimer claimer;
  private final PendingCreationStore pending;
  private final CreationRepair repair;
  private final UnitOfWork unitOfWork;
  private final IdGenerator ids;
  private final Clock clock;
  private final AccessPolicy policy;
  private final LifecycleProbe probe;
  private final ChangePublisher publisher;
  private final PrefixGenerator prefixes;

  public NamespaceCreation(OrgStore orgs, NamespaceStore namespaces, NameRegistry names,
      PrefixClaimer claimer, PendingCreationStore pending, CreationRepair repair,
      UnitOfWork unitOfWork, IdGenerator ids, Clock clock, AccessPolicy policy,
      LifecycleProbe probe, ChangePublisher publisher) {
    this.orgs = orgs;
    this.namespaces = namespaces;
    this.names = names;
    this.claimer = claimer;
    this.pending = pending;
    this.repair = repair;
    this.unitOfWork = unitOfWork;
    this.ids = ids;
    this.clock = clock;
    this.policy = policy;
    this.probe = probe;
    this.publisher = publisher;
    this.prefixes = new PrefixGenerator(ids::randomBelow);
  }

  /** Whether the caller may create namespaces in its org at all: checked before anything else. */
  public void authorize(OrgContext context) {
    context.org().requireIceberg();
    policy.requireAdmin(context, "create namespaces");
  }

  /**
   * Creates the namespace; {@code result} is what the caller's API answers, recorded with the
   * namespace for a request sent with an idempotency key.
   */
  public Namespace create(OrgContext context, Request request, Object result) {
    authorize(context);
    BucketConfig bucket = chooseBucket(context, request.bucketNickname());
    Instant now = clock.instant();
    Namespace namespace = new Namespace(ids.newId(), context.org().id(), request.name(),
        bucket.id(), prefixes.namespacePrefix(bucket, request.name()), request.properties(),
        request.description(), request.metadata(), request.visibility(), now, now,
        Optional.empty());
    Pending journal = new Pending(namespace.id(), namespace.orgId(),
        PrefixClaim.OwnerKind.NAMESPACE, namespace.name(), bucket.id(), namespace.prefix(), now);
    unitOfWork.inTransaction(() -> {
      names.reserve(namespace.orgId(), namespace.name(), PrefixClaim.OwnerKind.NAMESPACE,
          namespace.id()).ifPresent(holder -> {
            throw new AlreadyExistsException(holder.kind() == PrefixClaim.OwnerKind.REPO
                ? "Name '%s' is taken by a repo of this org" : "Namespace already exists: %s",
                namespace.name());
          });
      claimer.reserve(bucket, new PrefixClaim(bucket.id(), namespace.prefix(),
          new PrefixClaim.Owner(PrefixClaim.OwnerKind.NAMESPACE, namespace.id())));
      pending.record(journal);
    });
    probe.reached("namespace-create:claimed");
    try {
      claimer.writeMarker(bucket, namespace.prefix(), marker(context, namespace));
      probe.reached("namespace-create:marked");
      publisher.publish(context, result, () -> {
        if (!pending.finish(namespace.id())) {
          throw new CommitStateUnknownException(new IllegalStateException(
              "the creation of namespace " + namespace.name() + " was undone by a repair pass"));
        }
        namespaces.insert(namespace);
      });
    } catch (RuntimeException e) {
      repair.undoQuietly(journal, e);
      throw e;
    }
    return namespace;
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

  private static String marker(OrgContext context, Namespace namespace) {
    return "{\"kind\":\"namespace\",\"org\":\"" + context.org().name() + "\",\"id\":\""
        + namespace.id() + "\",\"created_at\":\"" + namespace.createdAt() + "\"}\n";
  }
}
