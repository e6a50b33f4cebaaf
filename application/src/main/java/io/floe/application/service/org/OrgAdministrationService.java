package io.floe.application.service.org;

import io.floe.application.model.BucketSpec;
import io.floe.application.port.in.org.OrgAdministrationUseCase;
import io.floe.application.port.in.org.ProvisionOrgUseCase;
import io.floe.application.port.in.org.ProvisionOrgUseCase.ProvisionedOrg;
import io.floe.application.port.out.OrgStore;
import io.floe.application.port.out.PrincipalStore;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.Caller;
import io.floe.application.security.OrgContext;
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
  private final OrgName bootstrapOrg;
  private final Function<OrgName, BucketSpec> localDefaultBucket;

  /**
   * @param localDefaultBucket the default bucket of an org created without one: a directory on
   *     the server's disk, which the function prepares
   */
  public OrgAdministrationService(ProvisionOrgUseCase provisioning, OrgStore orgs,
      PrincipalStore principals, AccessPolicy policy, OrgName bootstrapOrg,
      Function<OrgName, BucketSpec> localDefaultBucket) {
    this.provisioning = Objects.requireNonNull(provisioning, "provisioning");
    this.orgs = Objects.requireNonNull(orgs, "orgs");
    this.principals = Objects.requireNonNull(principals, "principals");
    this.policy = Objects.requireNonNull(policy, "policy");
    this.bootstrapOrg = Objects.requireNonNull(bootstrapOrg, "bootstrapOrg");
    this.localDefaultBucket = Objects.requireNonNull(localDefaultBucket, "localDefaultBucket");
  }

  @Override
  public ProvisionedOrg create(Caller caller, NewOrg request) {
    policy.requireOperator(inBootstrapOrg(caller), bootstrapOrg, "create orgs");
    OrgName name = new OrgName(request.name());
    if (orgs.findOrg(name).isPresent()) {
      // Checked here too, so that a taken name prepares no local bucket directory.
      throw new AlreadyExistsException("Org already exists: %s", name);
    }
    BucketSpec bucket = request.defaultBucket().orElseGet(() -> localDefaultBucket.apply(name));
    return provisioning.provision(name, request.icebergEnabled(), bucket);
  }

  @Override
  public Org setIcebergEnabled(Caller caller, String org, boolean enabled) {
    policy.requireOperator(inBootstrapOrg(caller), bootstrapOrg,
        "switch an org's Iceberg feature flag");
    Org found = parse(org).flatMap(orgs::findOrg)
        .orElseThrow(() -> new NoSuchWarehouseException("Org does not exist: %s", org));
    orgs.setIcebergEnabled(found.id(), enabled);
    return new Org(found.id(), found.name(), enabled);
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
