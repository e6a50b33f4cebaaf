package io.floe.application.service.org;

import io.floe.application.model.AuditAction;
import io.floe.application.model.BucketSpec;
import io.floe.application.model.Invalid;
import io.floe.application.model.VisibleBucket;
import io.floe.application.port.in.org.BucketManagementUseCase;
import io.floe.application.port.out.IdGenerator;
import io.floe.application.port.out.OrgStore;
import io.floe.application.port.out.UnitOfWork;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.BucketIdentityPolicy;
import io.floe.application.security.Operators;
import io.floe.application.security.OrgContext;
import io.floe.application.service.change.ChangePublisher;
import io.floe.domain.BucketConfig;
import io.floe.domain.CatalogName;
import io.floe.domain.DomainException;
import io.floe.domain.InvalidNameException;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.NotFoundException;

/**
 * Bucket configurations, managed by org admins; nothing that holds a prefix loses its bucket. A
 * local bucket is a directory on the server's own disk: only operators create or move one, and
 * only where {@link LocalBucketPlacement} allows. The identity and endpoints a configuration
 * makes the server use are {@link BucketIdentityPolicy}'s to allow.
 */
public final class BucketManagementService implements BucketManagementUseCase {
  private final OrgStore orgs;
  private final UnitOfWork unitOfWork;
  private final IdGenerator ids;
  private final AccessPolicy policy;
  private final ChangePublisher publisher;
  private final Operators operators;
  private final LocalBucketPlacement localBuckets;
  private final BucketIdentityPolicy identities;

  public BucketManagementService(OrgStore orgs, UnitOfWork unitOfWork, IdGenerator ids,
      AccessPolicy policy, ChangePublisher publisher, Operators operators,
      LocalBucketPlacement localBuckets, BucketIdentityPolicy identities) {
    this.orgs = orgs;
    this.unitOfWork = unitOfWork;
    this.ids = ids;
    this.policy = policy;
    this.publisher = publisher;
    this.operators = operators;
    this.localBuckets = localBuckets;
    this.identities = identities;
  }

  @Override
  public List<VisibleBucket> list(OrgContext context) {
    return orgs.buckets(context.org().id()).stream().map(bucket -> visible(context, bucket))
        .toList();
  }

  @Override
  public VisibleBucket get(OrgContext context, String nicknameOrId) {
    return visible(context, find(context, nicknameOrId));
  }

  private VisibleBucket visible(OrgContext context, BucketConfig bucket) {
    return new VisibleBucket(bucket, policy.mayReadBucketConfigurations(context));
  }

  @Override
  public BucketConfig create(OrgContext context, BucketSpec spec, boolean makeDefault) {
    policy.requireAdmin(context, "add bucket configurations");
    if (spec.platform() == StoragePlatform.LOCAL) {
      operators.require(context.caller(), "add local buckets");
    }
    UUID orgId = context.org().id();
    BucketConfig bucket = validated(() -> new BucketConfig(ids.newId(), orgId, spec.nickname(),
        spec.platform(), spec.bucket(), spec.prefix(), spec.endpoint(), spec.region(),
        spec.pathStyle(), spec.credentials(), false));
    identities.requireAllowed(bucket);
    return publisher.publishResultOf(context, BucketChanges.created(bucket, makeDefault), () -> {
      if (orgs.bucket(orgId, spec.nickname()).isPresent()) {
        throw new AlreadyExistsException("Bucket configuration '%s' already exists",
            spec.nickname());
      }
      boolean isDefault = makeDefault || orgs.defaultBucket(orgId).isEmpty();
      localBuckets.requirePlaceable(bucket);
      orgs.insertBucket(bucket);
      if (isDefault) {
        orgs.setDefaultBucket(orgId, bucket.id());
      }
      return find(context, bucket.id().toString());
    });
  }

  @Override
  public BucketConfig update(OrgContext context, String nicknameOrId, BucketUpdate update) {
    policy.requireAdmin(context, "change bucket configurations");
    if (update.movesData() && (find(context, nicknameOrId).platform() == StoragePlatform.LOCAL
        || update.platform().filter(StoragePlatform.LOCAL.wireName()::equalsIgnoreCase)
            .isPresent())) {
      operators.require(context.caller(), "move local buckets");
    }
    return unitOfWork.inTransaction(() -> {
      BucketConfig current = find(context, nicknameOrId);
      orgs.lockBucket(current.id());
      if (update.movesData() && orgs.isBucketInUse(current.id())) {
        throw new AlreadyExistsException("Bucket configuration '%s' holds namespaces, tables or "
            + "repos: its bucket, prefix and platform cannot change", current.nickname());
      }
      BucketConfig updated = validated(() -> new BucketConfig(current.id(), current.orgId(),
          current.nickname(),
          update.platform().map(StoragePlatform::fromWireName).orElse(current.platform()),
          update.bucket().orElse(current.bucket()),
          update.prefix().map(StoragePath::parse).orElse(current.prefix()),
          update.endpoint().orElse(current.endpoint()), update.region().orElse(current.region()),
          update.pathStyle().orElse(current.pathStyle()),
          update.credentials().orElse(current.credentials()), current.isDefault()));
      identities.requireAllowed(updated);
      if (update.movesData()) {
        localBuckets.requirePlaceable(updated);
      }
      return publisher.publishResultOf(context, BucketChanges.updated(current, update), () -> {
        orgs.updateBucket(updated);
        return find(context, current.id().toString());
      });
    });
  }

  @Override
  public void delete(OrgContext context, String nicknameOrId) {
    policy.requireAdmin(context, "remove bucket configurations");
    unitOfWork.inTransaction(() -> {
      BucketConfig bucket = find(context, nicknameOrId);
      // The lock orders this check before any claim being made on the bucket right now.
      orgs.lockBucket(bucket.id());
      if (orgs.isBucketInUse(bucket.id())) {
        throw new AlreadyExistsException("Bucket configuration '%s' still holds namespaces, "
            + "tables or repos (deleted ones count until their cleanup)", bucket.nickname());
      }
      publisher.publish(context, BucketChanges.of(AuditAction.BUCKET_DELETE, bucket.nickname()),
          () -> orgs.deleteBucket(bucket.id()));
    });
  }

  @Override
  public BucketConfig makeDefault(OrgContext context, String nicknameOrId) {
    policy.requireAdmin(context, "choose the default bucket");
    return unitOfWork.inTransaction(() -> {
      BucketConfig bucket = find(context, nicknameOrId);
      return publisher.publishResultOf(context,
          BucketChanges.of(AuditAction.BUCKET_SET_DEFAULT, bucket.nickname()), () -> {
            orgs.setDefaultBucket(context.org().id(), bucket.id());
            return find(context, bucket.id().toString());
          });
    });
  }

  /** A configuration that breaks a rule of the model is a validation error saying which. */
  private static BucketConfig validated(java.util.function.Supplier<BucketConfig> build) {
    try {
      return build.get();
    } catch (DomainException e) {
      throw Invalid.because(e.getMessage());
    }
  }

  private BucketConfig find(OrgContext context, String nicknameOrId) {
    UUID orgId = context.org().id();
    return asId(nicknameOrId).flatMap(orgs::bucket)
        .filter(bucket -> bucket.orgId().equals(orgId))
        .or(() -> asNickname(nicknameOrId).flatMap(nickname -> orgs.bucket(orgId, nickname)))
        .orElseThrow(() -> new NotFoundException("Bucket configuration '%s' does not exist",
            nicknameOrId));
  }

  private static Optional<UUID> asId(String raw) {
    try {
      return Optional.of(UUID.fromString(raw));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  private static Optional<CatalogName> asNickname(String raw) {
    try {
      return Optional.of(new CatalogName(raw));
    } catch (InvalidNameException e) {
      return Optional.empty();
    }
  }
}
