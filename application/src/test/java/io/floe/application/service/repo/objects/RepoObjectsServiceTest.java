package io.floe.application.service.repo.objects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.model.WritePrecondition;
import io.floe.application.port.in.repo.RepoObjectsUseCase.RepoObjectSession;
import io.floe.application.port.out.BucketStorage;
import io.floe.application.port.out.BucketStorageProvider;
import io.floe.application.port.out.CredentialVendor.Access;
import io.floe.application.port.out.StreamingBucketStorage;
import io.floe.application.testbed.Testbed;
import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.CatalogName;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.junit.jupiter.api.Test;

/**
 * Opening the S3 session of credentials Floe vended for a repo on a local bucket: a key Floe
 * issued opens a session confined to the repo's prefix, with the access it was issued for and
 * its own secret; a forged or expired key, one for a bucket that is gone or is no local bucket,
 * opens nothing.
 */
class RepoObjectsServiceTest {
  private final Testbed bed = new Testbed();
  private final BucketConfig disk = new BucketConfig(bed.ids.newId(), bed.org.id(),
      new CatalogName("disk"), StoragePlatform.LOCAL, "/srv/buckets/acme", StoragePath.root(),
      Optional.empty(), Optional.empty(), false, BucketCredentials.none(), false);
  private final StoragePath prefix = new StoragePath("k3x9_weather");
  private final ConfinedRepoObjectsTest.Objects objects = new ConfinedRepoObjectsTest.Objects();
  private final LocalRepoCredentials credentials =
      new LocalRepoCredentials(new byte[32], bed.clock, Duration.ofHours(1));
  private final RepoObjectsService service = new RepoObjectsService(credentials,
      bed.store.orgs(), new BucketStorageProvider() {
        @Override
        public BucketStorage open(BucketConfig bucket) {
          throw new AssertionError("sessions stream their objects");
        }

        @Override
        public Optional<StreamingBucketStorage> streaming(BucketConfig bucket) {
          return bucket.platform() == StoragePlatform.LOCAL ? Optional.of(objects)
              : Optional.empty();
        }
      });

  RepoObjectsServiceTest() {
    bed.store.orgs().insertBucket(disk);
  }

  private String issued(BucketConfig bucket, Access access) {
    return credentials.issue(bucket, prefix, access, bed.admin.caller().principal().id())
        .config().get("s3.access-key-id");
  }

  private static ByteArrayInputStream bytes(String text) {
    return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void anIssuedKeyOpensASessionConfinedToTheReposPrefixWithItsOwnSecret() {
    String keyId = issued(disk, Access.READ_WRITE);

    RepoObjectSession session = service.session(keyId).orElseThrow();

    assertThat(session.secretAccessKey()).isEqualTo(credentials.secretOf(keyId));
    session.put(prefix + "/repo", bytes("v1"), 2, WritePrecondition.none());
    assertThat(objects.content(prefix + "/repo")).isEqualTo("v1");
    objects.seed("other_repo/repo", "theirs");
    assertThatThrownBy(() -> session.put("other_repo/repo", bytes("mine"), 4,
        WritePrecondition.none())).isInstanceOf(ForbiddenException.class);
    assertThat(objects.content("other_repo/repo")).isEqualTo("theirs");
  }

  @Test
  void aReadOnlyKeyReadsButWritesNothing() {
    objects.seed(prefix + "/repo", "v1");
    RepoObjectSession session = service.session(issued(disk, Access.READ_ONLY)).orElseThrow();

    assertThat(session.head(prefix + "/repo")).isPresent();
    assertThatThrownBy(() -> session.put(prefix + "/repo", bytes("v2"), 2,
        WritePrecondition.none())).isInstanceOf(ForbiddenException.class);
    assertThat(objects.content(prefix + "/repo")).isEqualTo("v1");
  }

  @Test
  void aForgedExpiredOrHomelessKeyOpensNothing() {
    String keyId = issued(disk, Access.READ_WRITE);
    BucketConfig s3 = bed.bucket;
    String forS3 = issued(s3, Access.READ_WRITE);

    assertThat(service.session("FLOE" + "A".repeat(60))).isEmpty();
    int middle = keyId.length() / 2;
    char altered = keyId.charAt(middle) == 'A' ? 'B' : 'A';
    assertThat(service.session(keyId.substring(0, middle) + altered
        + keyId.substring(middle + 1))).isEmpty();
    assertThat(service.session(forS3)).isEmpty();
    bed.clock.advance(Duration.ofHours(1));
    assertThat(service.session(keyId)).isEmpty();
  }

  @Test
  void aKeyForABucketThatWasRemovedOpensNothing() {
    String keyId = issued(disk, Access.READ_WRITE);
    bed.store.orgs().deleteBucket(disk.id());

    assertThat(service.session(keyId)).isEmpty();
  }
}
