package io.floe.application.service.repo.objects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.model.WritePrecondition;
import io.floe.application.port.in.repo.RepoObjectsUseCase.RepoObjectSession;
import io.floe.application.port.out.BucketStorage;
import io.floe.application.port.out.BucketStorageProvider;
import io.floe.application.port.out.CredentialVendor.Access;
import io.floe.application.port.out.StreamingBucketStorage;
import io.floe.application.security.Caller;
import io.floe.application.security.MaintenanceJobTokens;
import io.floe.application.security.MaintenanceJobTokens.JobScope;
import io.floe.application.service.storage.LocalBucketJobAccess;
import io.floe.application.testbed.Testbed;
import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.CatalogName;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.junit.jupiter.api.Test;

/**
 * The keys a maintenance job running outside the server gets for a table on a local bucket
 * ({@link LocalBucketJobAccess}), opened as Floe's S3 endpoint opens every key
 * ({@link RepoObjectsService}): they read, write, list and delete beneath the table's prefix and
 * nothing else (not a sibling table whose name starts the same, not another namespace, not the
 * bucket's root), and open nothing once expired. Only a maintenance job's caller on a local
 * bucket gets them.
 */
class TableScopedKeysTest {
  private final Testbed bed = new Testbed();
  private final BucketConfig disk = new BucketConfig(bed.ids.newId(), bed.org.id(),
      new CatalogName("disk"), StoragePlatform.LOCAL, "/srv/buckets/acme", StoragePath.root(),
      Optional.empty(), Optional.empty(), false, BucketCredentials.none(), false);
  private final StoragePath table = new StoragePath("sales_k3x9/orders_a1b2");
  private final ConfinedRepoObjectsTest.Objects objects = new ConfinedRepoObjectsTest.Objects();
  private final LocalRepoCredentials credentials =
      new LocalRepoCredentials(new byte[32], bed.clock, Duration.ofHours(1));
  private final LocalBucketJobAccess access =
      new LocalBucketJobAccess(credentials, "floe-local-bucket");
  private final RepoObjectsService endpoint = new RepoObjectsService(credentials,
      bed.store.orgs(), new BucketStorageProvider() {
        @Override
        public BucketStorage open(BucketConfig bucket) {
          throw new AssertionError("sessions stream their objects");
        }

        @Override
        public Optional<StreamingBucketStorage> streaming(BucketConfig bucket) {
          return Optional.of(objects);
        }
      });
  private final Caller job = MaintenanceJobTokens.caller(new JobScope(bed.org.id(),
      UUID.randomUUID(), UUID.randomUUID(), 7, bed.clock.instant().plus(Duration.ofHours(1))));

  TableScopedKeysTest() {
    bed.store.orgs().insertBucket(disk);
    objects.seed(table + "/data/mine.parquet", "mine");
    objects.seed("sales_k3x9/orders_a1b2x/data/sibling.parquet", "sibling");
    objects.seed("other_ns/theirs_c3d4/data/theirs.parquet", "theirs");
    objects.seed("secret.key", "root");
  }

  private RepoObjectSession session(Map<String, String> config) {
    return endpoint.session(config.get("s3.access-key-id")).orElseThrow();
  }

  @Test
  void aJobsKeysReachTheTablesPrefixAndNothingElse() {
    Map<String, String> config = access.config(job, disk, table, Access.READ_WRITE)
        .orElseThrow();
    assertThat(config).containsEntry(LocalBucketJobAccess.ROOT, "file:///srv/buckets/acme/")
        .containsEntry(LocalBucketJobAccess.ENDPOINT_BUCKET, "floe-local-bucket")
        .containsKeys("s3.secret-access-key", "s3.session-token-expires-at-ms");
    RepoObjectSession session = session(config);
    assertThat(session.secretAccessKey()).isEqualTo(config.get("s3.secret-access-key"));

    assertThat(session.get(table + "/data/mine.parquet", 0, -1)).isPresent();
    session.put(table + "/data/compacted.parquet", bytes("new"), 3, WritePrecondition.none());
    assertThat(session.list(table + "/", Optional.empty(), Optional.empty(), 100).objects())
        .extracting(o -> o.key().value()).containsExactly(table + "/data/compacted.parquet",
            table + "/data/mine.parquet");
    session.delete(List.of(table + "/data/mine.parquet"));
    assertThat(objects.keys()).doesNotContain(table + "/data/mine.parquet");

    for (String foreign : List.of("sales_k3x9/orders_a1b2x/data/sibling.parquet",
        "other_ns/theirs_c3d4/data/theirs.parquet", "secret.key",
        table + "/../../other_ns/theirs_c3d4/data/theirs.parquet")) {
      assertThatThrownBy(() -> session.get(foreign, 0, -1)).as("GET %s", foreign)
          .isInstanceOf(RuntimeException.class);
      assertThatThrownBy(() -> session.delete(List.of(foreign))).as("DELETE %s", foreign)
          .isInstanceOf(RuntimeException.class);
    }
    // The table's own prefix, without its '/', lists the table's directory alone.
    assertThat(session.list(table.value(), Optional.empty(), Optional.empty(), 100).objects())
        .extracting(o -> o.key().value()).containsExactly(table + "/data/compacted.parquet");
    for (String prefix : List.of("", "sales_k3x9/", "sales_k3x9/orders_a1b", "other_ns/")) {
      assertThatThrownBy(() -> session.list(prefix, Optional.empty(), Optional.empty(), 100))
          .as("LIST %s", prefix).isInstanceOf(ForbiddenException.class);
    }
    // One foreign key in a batch deletes nothing of it.
    assertThatThrownBy(() -> session.delete(List.of(table + "/data/compacted.parquet",
        "other_ns/theirs_c3d4/data/theirs.parquet"))).isInstanceOf(ForbiddenException.class);
    assertThat(objects.content(table + "/data/compacted.parquet")).isEqualTo("new");
    assertThat(objects.content("sales_k3x9/orders_a1b2x/data/sibling.parquet"))
        .isEqualTo("sibling");
    assertThat(objects.content("other_ns/theirs_c3d4/data/theirs.parquet")).isEqualTo("theirs");
    assertThat(objects.content("secret.key")).isEqualTo("root");
  }

  @Test
  void theKeysExpire() {
    Map<String, String> config = access.config(job, disk, table, Access.READ_WRITE)
        .orElseThrow();
    assertThat(Long.parseLong(config.get("s3.session-token-expires-at-ms")))
        .isEqualTo(bed.clock.instant().plus(Duration.ofHours(1)).toEpochMilli());
    bed.clock.advance(Duration.ofMinutes(59));
    assertThat(endpoint.session(config.get("s3.access-key-id"))).isPresent();

    bed.clock.advance(Duration.ofMinutes(1));

    assertThat(endpoint.session(config.get("s3.access-key-id"))).isEmpty();
  }

  @Test
  void readOnlyKeysWriteNothing() {
    RepoObjectSession session = session(access.config(job, disk, table, Access.READ_ONLY)
        .orElseThrow());
    assertThatThrownBy(() -> session.delete(List.of(table + "/data/mine.parquet")))
        .isInstanceOf(ForbiddenException.class);
    assertThat(objects.content(table + "/data/mine.parquet")).isEqualTo("mine");
  }

  @Test
  void onlyAMaintenanceJobOnALocalBucketGetsKeys() {
    assertThat(access.config(bed.admin.caller(), disk, table, Access.READ_WRITE)).isEmpty();
    assertThat(access.config(job, bed.bucket, table, Access.READ_WRITE)).isEmpty();
    assertThat(LocalBucketJobAccess.NONE.config(job, disk, table, Access.READ_WRITE)).isEmpty();
  }

  private static ByteArrayInputStream bytes(String text) {
    return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
  }
}
