package io.floe.application.service.org;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.model.AuditEntry;
import io.floe.application.model.AuditQuery;
import io.floe.application.model.BucketSpec;
import io.floe.application.model.RequestInfo;
import io.floe.application.port.in.org.OrgAdministrationUseCase.NewOrg;
import io.floe.application.port.in.org.ProvisionOrgUseCase;
import io.floe.application.security.Caller;
import io.floe.application.security.Operators;
import io.floe.application.security.OrgContext;
import io.floe.application.testbed.Testbed;
import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.CatalogName;
import io.floe.domain.InvalidNameException;
import io.floe.domain.Org;
import io.floe.domain.OrgName;
import io.floe.domain.Principal;
import io.floe.domain.Role;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NoSuchWarehouseException;
import org.junit.jupiter.api.Test;

/**
 * The operators' org administration, with the testbed's org as the bootstrap org: only its
 * admins create orgs and switch their flag, a non-operator learns nothing and causes nothing,
 * every change is audited in the bootstrap org.
 */
class OrgAdministrationServiceTest {
  private final Testbed bed = new Testbed();
  private final List<String> provisioned = new ArrayList<>();
  private final List<String> localBucketsPrepared = new ArrayList<>();
  private final OrgAdministrationService administration = new OrgAdministrationService(
      new RecordingProvisioning(),
      bed.store.orgs(), new Operators(bed.store.orgs(), bed.store.principals(), bed.policy(),
          bed.org.name()), bed.publisher(), name -> {
            localBucketsPrepared.add(name.value());
            return spec(StoragePlatform.LOCAL, "/srv/floe/" + name.value());
          });
  private final OrgContext member = bed.member("max", Role.MEMBER);

  /** Provisions into the org store, as the real service does, without buckets or tokens. */
  private final class RecordingProvisioning implements ProvisionOrgUseCase {
    @Override
    public ProvisionedOrg provision(OrgName name, boolean icebergEnabled, BucketSpec bucket) {
      provisioned.add(name.value() + " " + icebergEnabled + " " + bucket.platform().wireName());
      Org org = new Org(bed.ids.newId(), name, icebergEnabled);
      bed.store.orgs().insertOrg(org);
      BucketConfig config = new BucketConfig(bed.ids.newId(), org.id(), bucket.nickname(),
          bucket.platform(), bucket.bucket(), bucket.prefix(), bucket.endpoint(),
          bucket.region(), bucket.pathStyle(), bucket.credentials(), true);
      return new ProvisionedOrg(org, config, new Principal(bed.ids.newId(),
          Principal.Kind.API_CLIENT, "admin"), "ema_secret");
    }

    @Override
    public boolean provisionIfAbsent(OrgName name, BucketSpec defaultBucket,
        Optional<String> presetToken, Consumer<String> deliverToken) {
      throw new AssertionError("not used by the administration");
    }
  }

  private static BucketSpec spec(StoragePlatform platform, String bucket) {
    return new BucketSpec(new CatalogName("default"), platform, bucket, StoragePath.root(),
        Optional.empty(), Optional.empty(), false, BucketCredentials.none());
  }

  private Caller operator() {
    return bed.admin.caller();
  }

  private List<AuditEntry> audit() {
    return bed.store.audit().list(bed.org.id(), AuditQuery.all()).entries();
  }

  @Test
  void anOperatorCreatesAnOrgOnALocalBucketByDefaultAndItIsAudited() {
    var created = administration.create(operator(), RequestInfo.internal(),
        new NewOrg("newco", false, Optional.empty()));

    assertThat(created.org().name().value()).isEqualTo("newco");
    assertThat(provisioned).containsExactly("newco false local");
    assertThat(localBucketsPrepared).containsExactly("newco");
    assertThat(audit()).singleElement().satisfies(entry -> {
      assertThat(entry.action()).isEqualTo("org.create");
      assertThat(entry.targetName()).isEqualTo("newco");
      assertThat(entry.details()).containsEntry("iceberg_enabled", false);
    });
  }

  @Test
  void anOrgsOwnDefaultBucketPreparesNoLocalOne() {
    administration.create(operator(), RequestInfo.internal(),
        new NewOrg("cloudy", true, Optional.of(spec(StoragePlatform.S3, "their-bucket"))));

    assertThat(provisioned).containsExactly("cloudy true s3");
    assertThat(localBucketsPrepared).isEmpty();
  }

  @Test
  void aNonOperatorIsRefusedBeforeTheNameIsEvenRead() {
    assertThatThrownBy(() -> administration.create(member.caller(), RequestInfo.internal(),
        new NewOrg("Not A Valid Name", true, Optional.empty())))
        .isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> administration.setIcebergEnabled(member.caller(),
        RequestInfo.internal(), "no-such-org", true)).isInstanceOf(ForbiddenException.class);

    assertThat(provisioned).isEmpty();
    assertThat(localBucketsPrepared).isEmpty();
    assertThat(audit()).isEmpty();
  }

  @Test
  void aTakenOrBrokenNamePreparesNothing() {
    assertThatThrownBy(() -> administration.create(operator(), RequestInfo.internal(),
        new NewOrg(bed.org.name().value(), true, Optional.empty())))
        .isInstanceOf(AlreadyExistsException.class);
    assertThatThrownBy(() -> administration.create(operator(), RequestInfo.internal(),
        new NewOrg("-bad", true, Optional.empty()))).isInstanceOf(InvalidNameException.class);

    assertThat(provisioned).isEmpty();
    assertThat(localBucketsPrepared).isEmpty();
    assertThat(audit()).isEmpty();
  }

  @Test
  void theIcebergFlagIsSwitchedAndAuditedAndAnUnknownOrgIs404() {
    Org switched = administration.setIcebergEnabled(operator(), RequestInfo.internal(),
        bed.org.name().value(), false);

    assertThat(switched.icebergEnabled()).isFalse();
    assertThat(bed.store.orgs().findOrg(bed.org.name()).orElseThrow().icebergEnabled()).isFalse();
    assertThat(audit()).singleElement()
        .satisfies(entry -> assertThat(entry.action()).isEqualTo("org.set_iceberg"));
    assertThatThrownBy(() -> administration.setIcebergEnabled(operator(), RequestInfo.internal(),
        "no-such-org", true)).isInstanceOf(NoSuchWarehouseException.class);
    assertThatThrownBy(() -> administration.setIcebergEnabled(operator(), RequestInfo.internal(),
        "Not/A/Name", true)).isInstanceOf(NoSuchWarehouseException.class);
  }
}
