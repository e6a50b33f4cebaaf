package io.floe.application.service.org;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.model.AuditEntry;
import io.floe.application.model.BucketSpec;
import io.floe.application.model.VisibleBucket;
import io.floe.application.port.in.org.BucketManagementUseCase.BucketUpdate;
import io.floe.application.port.out.StorageNetwork;
import io.floe.application.security.BucketIdentityPolicy;
import io.floe.application.security.Operators;
import io.floe.application.security.OrgContext;
import io.floe.application.testbed.Testbed;
import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.CatalogName;
import io.floe.domain.OrgName;
import io.floe.domain.Role;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import io.floe.domain.Visibility;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.exceptions.UnprocessableEntityException;
import org.junit.jupiter.api.Test;

/**
 * An org's bucket configurations on the fakes: admins add, change, remove and choose the default;
 * members see nicknames but no configuration; a nickname is the org's once; nothing that holds a
 * prefix loses its bucket or sees it moved; local buckets are the operators', beneath the roots
 * they allow and apart from one another; the server's own identity is the operators' org's; the
 * audit log keeps each change without a secret.
 */
class BucketManagementServiceTest {
  private static final String SECRET = "wJalrXUtnFEMI-secret";

  private final Testbed bed = new Testbed();
  /** The testbed's org is the operators' org: its admin is an operator. */
  private final BucketManagementService buckets = service(bed.org.name());
  /** Another org runs the server: the testbed's admin is an org admin, no operator. */
  private final BucketManagementService asTenant = service(new OrgName("operators"));
  private final OrgContext member = bed.member("member", Role.MEMBER);

  private BucketManagementService service(OrgName operatorsOrg) {
    StorageNetwork publicNetwork = new StorageNetwork() {
      @Override
      public Reach reach(String host) {
        return host.equals("10.0.0.8") ? Reach.PRIVATE : Reach.PUBLIC;
      }

      @Override
      public List<URI> credentialServers(BucketConfig bucket) {
        return List.of();
      }
    };
    return new BucketManagementService(bed.store.orgs(), bed.store.unitOfWork(), bed.ids,
        bed.policy(), bed.publisher(),
        new Operators(bed.store.orgs(), bed.store.principals(), bed.policy(), operatorsOrg),
        new LocalBucketPlacement(List.of("/srv/floe"), bed.store.orgs(), directory -> directory),
        new BucketIdentityPolicy(BucketIdentityPolicy.Allowances.none()
            .withEndpointHosts(java.util.Set.of("minio.example.com")), operatorsOrg,
            bed.store.orgs(), publicNetwork));
  }

  private static BucketSpec s3(String nickname, String bucket) {
    return new BucketSpec(new CatalogName(nickname), StoragePlatform.S3, bucket,
        StoragePath.root(), Optional.empty(), Optional.of("eu-west-1"), false,
        BucketCredentials.staticKeys("AKIAEXAMPLE", SECRET));
  }

  private static BucketUpdate endpoint(String endpoint) {
    return new BucketUpdate(Optional.empty(), Optional.empty(), Optional.empty(),
        Optional.of(Optional.of(endpoint)), Optional.empty(), Optional.empty(), Optional.empty());
  }

  private static BucketUpdate moveTo(String bucket) {
    return new BucketUpdate(Optional.of(bucket), Optional.empty(), Optional.empty(),
        Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
  }

  private List<AuditEntry> audit() {
    return bed.auditLog();
  }

  @Test
  void anAdminAddsABucketThatIsNotTheDefaultUnlessAskedAndTheAuditKeepsNoSecret() {
    BucketConfig archive = buckets.create(bed.admin, s3("archive", "acme-archive"), false);

    assertThat(archive.orgId()).isEqualTo(bed.org.id());
    assertThat(archive.isDefault()).isFalse();
    assertThat(buckets.get(bed.admin, "archive").bucket().id()).isEqualTo(archive.id());
    assertThat(buckets.get(bed.admin, archive.id().toString()).bucket().nickname())
        .isEqualTo(new CatalogName("archive"));
    assertThat(bed.store.orgs().defaultBucket(bed.org.id()).orElseThrow().id())
        .isEqualTo(bed.bucket.id());
    assertThat(audit()).singleElement().satisfies(entry -> {
      assertThat(entry.action()).isEqualTo("bucket.create");
      assertThat(entry.targetName()).isEqualTo("archive");
      assertThat(entry.details().get("location").toString()).startsWith("s3://acme-archive");
      assertThat(entry.details()).containsEntry("platform", "s3")
          .containsEntry("make_default", false);
      assertThat(entry.details().toString()).doesNotContain(SECRET);
    });
  }

  @Test
  void aBucketAskedToBeTheDefaultBecomesTheOnlyDefault() {
    BucketConfig archive = buckets.create(bed.admin, s3("archive", "acme-archive"), true);

    assertThat(archive.isDefault()).isTrue();
    assertThat(buckets.list(bed.admin)).filteredOn(visible -> visible.bucket().isDefault())
        .extracting(visible -> visible.bucket().id()).containsExactly(archive.id());

    BucketConfig main = buckets.makeDefault(bed.admin, "main");
    assertThat(main.isDefault()).isTrue();
    assertThat(bed.store.orgs().defaultBucket(bed.org.id()).orElseThrow().id())
        .isEqualTo(bed.bucket.id());
    assertThat(audit()).extracting(AuditEntry::action)
        .containsExactly("bucket.create", "bucket.set_default");
  }

  @Test
  void membersSeeNicknamesButNoConfigurationAndChangeNothing() {
    buckets.create(bed.admin, s3("archive", "acme-archive"), false);

    assertThat(buckets.list(member)).hasSize(2).noneMatch(VisibleBucket::configurationShown);
    assertThat(buckets.list(bed.admin)).allMatch(VisibleBucket::configurationShown);
    assertThat(buckets.get(member, "archive").configurationShown()).isFalse();
    assertThatThrownBy(() -> buckets.create(member, s3("mine", "mine"), false))
        .isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> buckets.update(member, "archive", endpoint("https://minio.example.com")))
        .isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> buckets.delete(member, "archive"))
        .isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> buckets.makeDefault(member, "archive"))
        .isInstanceOf(ForbiddenException.class);
    assertThat(buckets.get(bed.admin, "archive").bucket().endpoint()).isEmpty();
    assertThat(audit()).hasSize(1);
  }

  @Test
  void aNicknameIsTheOrgsOnceAndAnUnknownOneIsNotFound() {
    buckets.create(bed.admin, s3("archive", "acme-archive"), false);

    assertThatThrownBy(() -> buckets.create(bed.admin, s3("archive", "other"), false))
        .isInstanceOf(AlreadyExistsException.class);
    assertThatThrownBy(() -> buckets.get(bed.admin, "nowhere"))
        .isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> buckets.get(bed.admin, "not a nickname!"))
        .isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> buckets.delete(bed.admin, bed.ids.newId().toString()))
        .isInstanceOf(NotFoundException.class);
    assertThat(bed.store.orgs().buckets(bed.org.id())).hasSize(2);
    assertThat(audit()).hasSize(1);
  }

  @Test
  void theServersOwnIdentityAndAnEndpointNobodyAllowedAreRefusedToATenantOrg() {
    BucketSpec ambient = new BucketSpec(new CatalogName("shared"), StoragePlatform.S3, "shared",
        StoragePath.root(), Optional.empty(), Optional.empty(), false,
        BucketCredentials.ambient());
    BucketSpec elsewhere = new BucketSpec(new CatalogName("elsewhere"), StoragePlatform.S3,
        "elsewhere", StoragePath.root(), Optional.of("https://storage.evil.example"),
        Optional.empty(), true, BucketCredentials.staticKeys("AKIAEXAMPLE", SECRET));
    BucketSpec internal = new BucketSpec(new CatalogName("internal"), StoragePlatform.S3,
        "internal", StoragePath.root(), Optional.of("http://10.0.0.8:9000"), Optional.empty(),
        true, BucketCredentials.staticKeys("AKIAEXAMPLE", SECRET));

    assertThatThrownBy(() -> asTenant.create(bed.admin, ambient, false))
        .isInstanceOf(ForbiddenException.class).hasMessageContaining("ambient");
    assertThatThrownBy(() -> asTenant.create(bed.admin, elsewhere, false))
        .isInstanceOf(ForbiddenException.class).hasMessageContaining("storage.evil.example");
    assertThatThrownBy(() -> buckets.create(bed.admin, internal, false))
        .isInstanceOf(ForbiddenException.class).hasMessageContaining("private");
    assertThat(bed.store.orgs().buckets(bed.org.id())).hasSize(1);
    assertThat(audit()).isEmpty();
    assertThat(asTenant.create(bed.admin, s3("archive", "acme-archive"), false).nickname())
        .isEqualTo(new CatalogName("archive"));
  }

  @Test
  void localBucketsAreTheOperatorsBeneathTheRootsAndApartFromOneAnother() {
    assertThatThrownBy(() -> asTenant.create(bed.admin, BucketSpec.local("disk", "/srv/floe/acme"),
        false)).isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> buckets.create(bed.admin, BucketSpec.local("disk", "/etc/floe"),
        false)).isInstanceOf(ForbiddenException.class).hasMessageContaining("beneath");

    BucketConfig disk = buckets.create(bed.admin, BucketSpec.local("disk", "/srv/floe/acme"),
        false);

    assertThat(disk.platform()).isEqualTo(StoragePlatform.LOCAL);
    assertThatThrownBy(() -> buckets.create(bed.admin,
        BucketSpec.local("inner", "/srv/floe/acme/inner"), false))
        .isInstanceOf(AlreadyExistsException.class);
    assertThatThrownBy(() -> buckets.create(bed.admin, BucketSpec.local("outer", "/srv/floe"),
        false)).isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> asTenant.update(bed.admin, "disk", moveTo("/srv/floe/other")))
        .isInstanceOf(ForbiddenException.class);
    assertThat(bed.store.orgs().buckets(bed.org.id())).hasSize(2);
  }

  @Test
  void aBucketThatHoldsANamespaceKeepsItsPlaceAndCannotBeRemoved() {
    bed.namespace("sales", Visibility.PRIVATE);

    assertThatThrownBy(() -> buckets.update(bed.admin, "main", moveTo("elsewhere")))
        .isInstanceOf(AlreadyExistsException.class);
    assertThatThrownBy(() -> buckets.delete(bed.admin, "main"))
        .isInstanceOf(AlreadyExistsException.class);
    assertThat(buckets.get(bed.admin, "main").bucket().bucket()).isEqualTo("data");

    BucketConfig changed = buckets.update(bed.admin, "main",
        endpoint("https://minio.example.com"));

    assertThat(changed.endpoint()).contains("https://minio.example.com");
    assertThat(changed.bucket()).isEqualTo("data");
    assertThat(audit()).singleElement().satisfies(entry -> {
      assertThat(entry.action()).isEqualTo("bucket.update");
      assertThat(entry.details()).containsEntry("fields", List.of("endpoint"));
    });
  }

  @Test
  void anUnusedBucketMovesAndIsRemovedAndAMalformedEndpointIsRefused() {
    buckets.create(bed.admin, s3("archive", "acme-archive"), false);

    assertThatThrownBy(() -> buckets.update(bed.admin, "archive", endpoint("ftp://minio")))
        .isInstanceOf(UnprocessableEntityException.class);
    assertThat(buckets.update(bed.admin, "archive", moveTo("acme-archive-2")).bucket())
        .isEqualTo("acme-archive-2");
    buckets.delete(bed.admin, "archive");

    assertThatThrownBy(() -> buckets.get(bed.admin, "archive"))
        .isInstanceOf(NotFoundException.class);
    assertThat(audit()).extracting(AuditEntry::action)
        .containsExactly("bucket.create", "bucket.update", "bucket.delete");
  }
}
