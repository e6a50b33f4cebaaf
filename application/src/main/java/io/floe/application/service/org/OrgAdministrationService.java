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
import io.floe.application.security.Caller;
import io.floe.application.security.Operators;
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
 * bootstrap org ({@link Operators} decides). The caller is checked before
 * anything else, so a non-operator learns nothing about names or orgs.
 */
public final class OrgAdministrationService implements OrgAdministrationUseCase {
  private final ProvisionOrgUseCase provisioning;
  private final OrgStore orgs;
  private final Operators operators;
  private final ChangePublisher publisher;
  private final Function<OrgName, BucketSpec> localDefaultBucket;

  /**
   * @param localDefaultBucket the default bucket of an org created without one: a directory on
   *     the server's disk, which the function prepares
   */
  public OrgAdministrationService(ProvisionOrgUseCase provisioning, OrgStore orgs,
      Operators operators, ChangePublisher publisher,
      Function<OrgName, BucketSpec> localDefaultBucket) {
    this.provisioning = Objects.requireNonNull(provisioning, "provisioning");
    this.orgs = Objects.requireNonNull(orgs, "orgs");
    this.operators = Objects.requireNonNull(operators, "operators");
    this.publisher = Objects.requireNonNull(publisher, "publisher");
    this.localDefaultBucket = Objects.requireNonNull(localDefaultBucket, "localDefaultBucket");
  }

  @Override
  public ProvisionedOrg create(Caller caller, RequestInfo request, NewOrg org) {
    OrgContext operator = operators.require(caller, "create orgs").on(request);
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
    OrgContext operator =
        operators.require(caller, "switch an org's Iceberg feature flag").on(request);
    Org found = parse(org).flatMap(orgs::findOrg)
        .orElseThrow(() -> new NoSuchWarehouseException("Org does not exist: %s", org));
    publisher.publish(operator, AuditedChange.of(AuditAction.ORG_SET_ICEBERG,
        AuditTarget.Kind.ORG, found.name()).with("iceberg_enabled", enabled),
        () -> orgs.setIcebergEnabled(found.id(), enabled));
    return new Org(found.id(), found.name(), enabled);
  }

  private static Optional<OrgName> parse(String org) {
    try {
      return Optional.of(new OrgName(org));
    } catch (InvalidNameException e) {
      return Optional.empty();
    }
  }
}
