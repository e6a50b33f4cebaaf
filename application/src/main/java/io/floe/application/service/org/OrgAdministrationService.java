package io.floe.application.service.org;

import io.floe.application.model.AuditAction;
import io.floe.application.model.AuditTarget;
import io.floe.application.model.AuditedChange;
import io.floe.application.model.BucketSpec;
import io.floe.application.model.RequestInfo;
import io.floe.application.port.in.org.OrgAdministrationUseCase;
import io.floe.application.port.in.org.ProvisionOrgUseCase;
import io.floe.application.port.in.org.ProvisionOrgUseCase.ProvisionedOrg;
import io.floe.application.port.out.OrgStore;
import io.floe.application.port.out.PrincipalStore;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.Caller;
import io.floe.application.security.OrgContext;
import io.floe.application.service.change.ChangePublisher;
import io.floe.domain.InvalidNameException;
import io.floe.domain.Org;
import io.floe.domain.OrgName;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.NoSuchWarehouseException;

/**
 * Creates orgs and switches their Iceberg flag for the server's operators, the admins of its
 * bootstrap org ({@link AccessPolicy#requireOperator} decides). The caller is checked before
 * anything else, so a non-operator learns nothing about names or orgs.
 */
public final class OrgAdministrationService implements OrgAdministrationUseCase {
  private final ProvisionOrgUseCase provisioning;
  private final OrgStore orgs;
  private final PrincipalStore principals;
  private final AccessPolicy policy;
  private final ChangePublisher publisher;
  private final OrgName bootstrapOrg;
  private final Function<OrgName, BucketSpec> localDefaultBucket;

  /**
   * @param localDefaultBucket the default bucket of an org created without one: a directory on
   *     the server's disk, which the function prepares
   */
  public OrgAdministrationService(ProvisionOrgUseCase provisioning, OrgStore orgs,
      PrincipalStore principals, AccessPolicy policy, ChangePublisher publisher,
      OrgName bootstrapOrg, Function<OrgName, BucketSpec> localDefaultBucket) {
    this.provisioning = Objects.requireNonNull(provisioning, "provisioning");
    this.orgs = Objects.requireNonNull(orgs, "orgs");
    this.principals = Objects.requireNonNull(principals, "principals");
    this.policy = Objects.requireNonNull(policy, "policy");
    this.publisher = Objects.requireNonNull(publisher, "publisher");
    this.bootstrapOrg = Objects.requireNonNull(bootstrapOrg, "bootstrapOrg");
    this.localDefaultBucket = Objects.requireNonNull(localDefaultBucket, "localDefaultBucket");
  }

  @Override
  public ProvisionedOrg create(Caller caller, RequestInfo request, NewOrg org) {
    OrgContext operator = operator(caller, request, "create orgs");
    OrgName name = new OrgName(org.name());
    if (orgs.findOrg(name).isPresent()) {
      // Checked here too, so that a taken name prepares no local bucket directory.
      throw new AlreadyExistsException("Org already exists: %s", name);
    }
    BucketSpec bucket = org.defaultBucket().orElseGet(() -> localDefaultBucket.apply(name));
    AuditedChange change = AuditedChange.of(AuditAction.ORG_CREATE, AuditTarget.Kind.ORG, name)
        .with("iceberg_enabled", org.icebergEnabled())
        .with("default_bucket", bucket.platform().wireName() + " " + bucket.bucket());
    return publisher.publishResultOf(operator, change,
        () -> provisioning.provision(name, org.icebergEnabled(), bucket));
  }

  @Override
  public Org setIcebergEnabled(Caller caller, RequestInfo request, String org, boolean enabled) {
    OrgContext operator = operator(caller, request, "switch an org's Iceberg feature flag");
    Org found = parse(org).flatMap(orgs::findOrg)
        .orElseThrow(() -> new NoSuchWarehouseException("Org does not exist: %s", org));
    publisher.publish(operator, AuditedChange.of(AuditAction.ORG_SET_ICEBERG,
        AuditTarget.Kind.ORG, found.name()).with("iceberg_enabled", enabled),
        () -> orgs.setIcebergEnabled(found.id(), enabled));
    return new Org(found.id(), found.name(), enabled);
  }

  /** The operator acting from the bootstrap org for {@code request}; a 403 for anyone else. */
  private OrgContext operator(Caller caller, RequestInfo request, String what) {
    Optional<OrgContext> context = inBootstrapOrg(caller);
    policy.requireOperator(context, bootstrapOrg, what);
    return context.orElseThrow().on(request);
  }

  private Optional<OrgContext> inBootstrapOrg(Caller caller) {
    return orgs.findOrg(bootstrapOrg).flatMap(org ->
        principals.findMembership(org.id(), caller.principal().id())
            .map(membership -> new OrgContext(caller, org, membership)));
  }

  private static Optional<OrgName> parse(String org) {
    try {
      return Optional.of(new OrgName(org));
    } catch (InvalidNameException e) {
      return Optional.empty();
    }
  }
}
