package io.floe.application.service.org;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.model.BucketSpec;
import io.floe.application.port.in.org.ProvisionOrgUseCase.ProvisionedOrg;
import io.floe.application.port.out.StorageNetwork;
import io.floe.application.security.BucketIdentityPolicy;
import io.floe.application.testbed.Testbed;
import io.floe.domain.ApiToken;
import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.CatalogName;
import io.floe.domain.DomainException;
import io.floe.domain.Membership;
import io.floe.domain.OrgName;
import io.floe.domain.Role;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.junit.jupiter.api.Test;

/**
 * Provisioning orgs on the fakes: an org comes with its default bucket, an admin and that admin's
 * token, all or nothing; a name is provisioned once; an operator's local bucket is placed only
 * beneath the allowed roots and a bucket's identity only as the policy allows, while the server's
 * own first-start org is placed by the server; a preset first-start token must be well formed.
 */
class OrgProvisioningServiceTest {
  private static final String PRESET = "ema_" + "0123456789abcdef".repeat(2);

  private final Testbed bed = new Testbed();
  private final OrgProvisioningService provisioning = new OrgProvisioningService(
      bed.store.orgs(), bed.store.principals(), bed.store.unitOfWork(), bed.ids, bed.clock,
      new LocalBucketPlacement(List.of("/srv/floe"), bed.store.orgs(), directory -> directory),
      new BucketIdentityPolicy(BucketIdentityPolicy.Allowances.none(), bed.org.name(),
          bed.store.orgs(), new StorageNetwork() {
            @Override
            public Reach reach(String host) {
              return Reach.PUBLIC;
            }

            @Override
            public List<URI> credentialServers(BucketConfig bucket) {
              return List.of();
            }
          }));
  private final List<String> delivered = new ArrayList<>();

  private static BucketSpec s3(String bucket, BucketCredentials credentials) {
    return new BucketSpec(new CatalogName("default"), StoragePlatform.S3, bucket,
        StoragePath.root(), Optional.empty(), Optional.empty(), false, credentials);
  }

  @Test
  void anOrgComesWithItsDefaultBucketAnAdminAndAWorkingToken() {
    ProvisionedOrg created = provisioning.provision(new OrgName("globex"), false,
        s3("globex-data", BucketCredentials.staticKeys("AKIAEXAMPLE", "secret")));

    assertThat(created.org().icebergEnabled()).isFalse();
    assertThat(bed.store.orgs().findOrg(new OrgName("globex"))).contains(created.org());
    assertThat(bed.store.orgs().defaultBucket(created.org().id())).hasValueSatisfying(bucket -> {
      assertThat(bucket.id()).isEqualTo(created.defaultBucket().id());
      assertThat(bucket.bucket()).isEqualTo("globex-data");
    });
    assertThat(created.admin().name()).isEqualTo("globex-admin");
    assertThat(bed.store.principals().findMembership(created.org().id(), created.admin().id()))
        .map(Membership::role).contains(Role.ADMIN);
    assertThat(created.token()).startsWith(ApiToken.PREFIX);
    assertThat(bed.store.principals().findTokenByHash(ApiToken.hash(created.token())))
        .hasValueSatisfying(token -> assertThat(token.principalId())
            .isEqualTo(created.admin().id()));
  }

  @Test
  void aNameIsProvisionedOnce() {
    BucketCredentials keys = BucketCredentials.staticKeys("AKIAEXAMPLE", "secret");
    provisioning.provision(new OrgName("globex"), true, s3("globex-data", keys));

    assertThatThrownBy(() -> provisioning.provision(new OrgName("globex"), true,
        s3("other", keys))).isInstanceOf(AlreadyExistsException.class);
    assertThatThrownBy(() -> provisioning.provision(bed.org.name(), true, s3("other", keys)))
        .isInstanceOf(AlreadyExistsException.class);
    assertThat(bed.store.orgs().findOrg(new OrgName("globex")).map(org -> org.id())
        .flatMap(bed.store.orgs()::defaultBucket).map(BucketConfig::bucket))
        .contains("globex-data");
  }

  @Test
  void aBucketThePoliciesRefuseLeavesNoOrgBehind() {
    assertThatThrownBy(() -> provisioning.provision(new OrgName("globex"), true,
        BucketSpec.local("default", "/etc/globex"))).isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> provisioning.provision(new OrgName("initech"), true,
        s3("initech-data", BucketCredentials.ambient()))).isInstanceOf(ForbiddenException.class);

    assertThat(bed.store.orgs().findOrg(new OrgName("globex"))).isEmpty();
    assertThat(bed.store.orgs().findOrg(new OrgName("initech"))).isEmpty();
    assertThat(provisioning.provision(new OrgName("globex"), true,
        BucketSpec.local("default", "/srv/floe/globex")).defaultBucket().platform())
        .isEqualTo(StoragePlatform.LOCAL);
  }

  @Test
  void theFirstStartProvisionsOnceWithThePresetTokenAndDeliversIt() {
    assertThat(provisioning.provisionIfAbsent(new OrgName("my-org"),
        BucketSpec.local("default", "/var/lib/floe/buckets/default"), Optional.of(PRESET),
        delivered::add)).isTrue();
    assertThat(provisioning.provisionIfAbsent(new OrgName("my-org"),
        BucketSpec.local("default", "/var/lib/floe/buckets/default"), Optional.empty(),
        delivered::add)).isFalse();

    assertThat(delivered).containsExactly(PRESET);
    assertThat(bed.store.principals().findTokenByHash(ApiToken.hash(PRESET))).isPresent();
    assertThatThrownBy(() -> provisioning.provisionIfAbsent(new OrgName("other"),
        BucketSpec.local("default", "/var/lib/floe/buckets/other"), Optional.of("short"),
        delivered::add)).isInstanceOf(DomainException.class);
    assertThat(bed.store.orgs().findOrg(new OrgName("other"))).isEmpty();
  }
}
