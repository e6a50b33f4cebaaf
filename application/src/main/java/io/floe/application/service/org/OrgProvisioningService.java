package io.floe.application.service.org;

import io.floe.application.model.BucketSpec;
import io.floe.application.port.in.org.ProvisionOrgUseCase;
import io.floe.application.port.out.IdGenerator;
import io.floe.application.port.out.OrgStore;
import io.floe.application.port.out.PrincipalStore;
import io.floe.application.port.out.UnitOfWork;
import io.floe.application.security.BucketIdentityPolicy;
import io.floe.domain.ApiToken;
import io.floe.domain.BucketConfig;
import io.floe.domain.Membership;
import io.floe.domain.Org;
import io.floe.domain.OrgName;
import io.floe.domain.Principal;
import io.floe.domain.Role;
import java.time.Clock;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import org.apache.iceberg.exceptions.AlreadyExistsException;

/**
 * Provisioning, on first start and by operators: an org, its default bucket and an admin token,
 * all or nothing. An operator's org gets a local default bucket only where
 * {@link LocalBucketPlacement} allows, and a default bucket's identity and endpoint only as
 * {@link BucketIdentityPolicy} allows; the server's own first-start org is placed by the server.
 */
public final class OrgProvisioningService implements ProvisionOrgUseCase {
  private static final int TOKEN_BYTES = 32;

  private final OrgStore orgs;
  private final PrincipalStore principals;
  private final UnitOfWork unitOfWork;
  private final IdGenerator ids;
  private final Clock clock;
  private final LocalBucketPlacement localBuckets;
  private final BucketIdentityPolicy identities;

  public OrgProvisioningService(OrgStore orgs, PrincipalStore principals, UnitOfWork unitOfWork,
      IdGenerator ids, Clock clock, LocalBucketPlacement localBuckets,
      BucketIdentityPolicy identities) {
    this.orgs = orgs;
    this.principals = principals;
    this.unitOfWork = unitOfWork;
    this.ids = ids;
    this.clock = clock;
    this.localBuckets = localBuckets;
    this.identities = identities;
  }

  @Override
  public boolean provisionIfAbsent(OrgName name, BucketSpec defaultBucket,
      Optional<String> presetToken, Consumer<String> deliverToken) {
    presetToken.ifPresent(ApiToken::requireWellFormed);
    try {
      return unitOfWork.inTransaction(() -> {
        if (orgs.findOrg(name).isPresent()) {
          return false;
        }
        ProvisionedOrg created = insert(name, true, defaultBucket, presetToken, false);
        deliverToken.accept(created.token());
        return true;
      });
    } catch (AlreadyExistsException e) {
      // Another server sharing the database provisioned it at the same moment.
      return false;
    }
  }

  @Override
  public ProvisionedOrg provision(OrgName name, boolean icebergEnabled, BucketSpec defaultBucket) {
    return unitOfWork.inTransaction(() -> {
      if (orgs.findOrg(name).isPresent()) {
        throw new AlreadyExistsException("Org already exists: %s", name);
      }
      return insert(name, icebergEnabled, defaultBucket, Optional.empty(), true);
    });
  }

  private ProvisionedOrg insert(OrgName name, boolean icebergEnabled, BucketSpec defaultBucket,
      Optional<String> presetToken, boolean placementChecked) {
    Org org = new Org(ids.newId(), name, icebergEnabled);
    if (!orgs.insertOrg(org)) {
      // The check before the insert raced with another create; the unique name decides.
      throw new AlreadyExistsException("Org already exists: %s", name);
    }
    BucketConfig bucket = toBucket(org.id(), defaultBucket, true);
    if (placementChecked) {
      identities.requireAllowed(bucket);
      localBuckets.requirePlaceable(bucket);
    }
    orgs.insertBucket(bucket);
    Principal admin = new Principal(ids.newId(), Principal.Kind.API_CLIENT, name + "-admin");
    principals.insertPrincipal(admin);
    principals.insertMembership(new Membership(org.id(), admin.id(), Role.ADMIN));
    return new ProvisionedOrg(org, bucket, admin, issueToken(admin.id(), presetToken));
  }

  private String issueToken(UUID principalId, Optional<String> preset) {
    String secret = preset.orElseGet(() -> ApiToken.secretFrom(ids.randomBytes(TOKEN_BYTES)));
    principals.insertToken(new ApiToken(ids.newId(), principalId, ApiToken.hash(secret),
        clock.instant(), Optional.empty(), Optional.empty()));
    return secret;
  }

  private BucketConfig toBucket(UUID orgId, BucketSpec spec, boolean isDefault) {
    return new BucketConfig(ids.newId(), orgId, spec.nickname(), spec.platform(), spec.bucket(),
        spec.prefix(), spec.endpoint(), spec.region(), spec.pathStyle(), spec.credentials(),
        isDefault);
  }
}
