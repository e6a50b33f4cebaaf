package io.floe.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PrefixClaimTest {
  private static final UUID BUCKET = UUID.randomUUID();

  private static PrefixClaim claim(UUID bucket, String path) {
    return new PrefixClaim(bucket, new StoragePath(path),
        new PrefixClaim.Owner(PrefixClaim.OwnerKind.NAMESPACE, UUID.randomUUID()));
  }

  @Test
  void equalParentAndChildPrefixesConflict() {
    PrefixClaim existing = claim(BUCKET, "org/abc_ns");
    assertThat(claim(BUCKET, "org/abc_ns").conflictsWith(existing)).isTrue();
    assertThat(claim(BUCKET, "org").conflictsWith(existing)).isTrue();
    assertThat(claim(BUCKET, "org/abc_ns/t1").conflictsWith(existing)).isTrue();
  }

  @Test
  void siblingsAndOtherBucketsDoNotConflict() {
    PrefixClaim existing = claim(BUCKET, "org/abc_ns");
    assertThat(claim(BUCKET, "org/abc_ns2").conflictsWith(existing)).isFalse();
    assertThat(claim(UUID.randomUUID(), "org/abc_ns").conflictsWith(existing)).isFalse();
  }

  @Test
  void findsTheFirstConflict() {
    PrefixClaim a = claim(BUCKET, "x/a");
    PrefixClaim b = claim(BUCKET, "x/b");
    assertThat(claim(BUCKET, "x/b/deeper").firstConflict(List.of(a, b))).contains(b);
  }

  @Test
  void aClaimCannotCoverAWholeBucket() {
    assertThatThrownBy(() -> claim(BUCKET, "")).hasMessageContaining("whole bucket");
  }

  @Test
  void generatedPrefixesHaveEightRandomLowercaseAlphanumericsAndTheName() {
    AtomicInteger next = new AtomicInteger();
    PrefixGenerator generator = new PrefixGenerator(bound -> next.getAndIncrement() % bound);
    BucketConfig bucket = new BucketConfig(BUCKET, UUID.randomUUID(), new CatalogName("b"),
        StoragePlatform.S3, "bucket", new StoragePath("warehouse"), java.util.Optional.empty(),
        java.util.Optional.empty(), false, BucketCredentials.ambient(), true);
    StoragePath prefix = generator.namespacePrefix(bucket, new CatalogName("My-Tables"));
    assertThat(prefix.value()).isEqualTo("warehouse/abcdefgh_My-Tables");
    assertThat(generator.namespacePrefix(bucket, new CatalogName("x")).value())
        .matches("warehouse/[a-z0-9]{8}_x");
  }
}
