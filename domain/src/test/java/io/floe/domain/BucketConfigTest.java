package io.floe.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class BucketConfigTest {

  private static BucketConfig bucket(StoragePlatform platform, String name) {
    return new BucketConfig(UUID.randomUUID(), UUID.randomUUID(), new CatalogName("b"), platform,
        name, StoragePath.root(), Optional.empty(), Optional.empty(), false,
        BucketCredentials.none(), false);
  }

  @Test
  void uriAndPathAreInverses() {
    BucketConfig s3 = bucket(StoragePlatform.S3, "data");
    StoragePath path = new StoragePath("p/q");
    assertThat(s3.uriOf(path)).isEqualTo("s3://data/p/q");
    assertThat(s3.pathOf("s3://data/p/q")).contains(path);
    assertThat(bucket(StoragePlatform.GCS, "g").uriOf(path)).isEqualTo("gs://g/p/q");
  }

  @Test
  void pathOfRefusesLocationsThatClimbOutOrLeaveTheBucket() {
    BucketConfig s3 = bucket(StoragePlatform.S3, "data");
    assertThat(s3.pathOf("s3://data/p/../q")).isEmpty();
    assertThat(s3.pathOf("s3://other/p")).isEmpty();
    assertThat(s3.pathOf("s3://database/p")).isEmpty();
    assertThat(s3.pathOf("gs://data/p")).isEmpty();
    assertThat(s3.pathOf("s3://data/p/%2e%2e/q")).isEmpty();
    assertThat(s3.pathOf("S3://data/p")).isEmpty();
  }

  @Test
  void aLocalBucketAddressesOnlyFilesBeneathItsDirectory() {
    BucketConfig local = bucket(StoragePlatform.LOCAL, "/srv/floe");
    assertThat(local.pathOf("file:///srv/floe")).contains(StoragePath.root());
    assertThat(local.pathOf("file:///srv/floe2/x")).isEmpty();
    assertThat(local.pathOf("file:///srv/floe/%2e%2e/floe2/x")).isEmpty();
    assertThat(local.pathOf("file://host/srv/floe/x")).isEmpty();
    assertThat(local.root()).contains(CanonicalLocation.parse("file:///srv/floe"));
  }

  @Test
  void localLocationsInEveryCommonSpellingNameTheSamePath() {
    BucketConfig local = bucket(StoragePlatform.LOCAL, "/srv/floe");
    StoragePath expected = new StoragePath("ns/t");
    assertThat(local.pathOf("file:///srv/floe/ns/t")).contains(expected);
    assertThat(local.pathOf("file:/srv/floe/ns/t")).contains(expected);
    assertThat(local.pathOf("/srv/floe/ns/t")).contains(expected);
  }

  @Test
  void localBucketsMustBeAbsoluteNormalizedDirectories() {
    assertThatThrownBy(() -> bucket(StoragePlatform.LOCAL, "relative/dir"))
        .hasMessageContaining("absolute");
    assertThatThrownBy(() -> bucket(StoragePlatform.LOCAL, "/srv/../etc"))
        .hasMessageContaining("absolute");
    assertThatThrownBy(() -> bucket(StoragePlatform.S3, "a/b")).hasMessageContaining("invalid");
  }

  @Test
  void azureIsRefusedForIcebergWithAClearMessage() {
    assertThatThrownBy(() -> bucket(StoragePlatform.AZURE, "container").requireIcebergSupport())
        .hasMessageContaining("azure").hasMessageContaining("not supported for Iceberg");
    bucket(StoragePlatform.GCS, "g").requireIcebergSupport();
  }

  @Test
  void credentialsNeverPrintSecrets() {
    assertThat(BucketCredentials.staticKeys("AKIA", "s3cr3t").toString()).doesNotContain("s3cr3t");
  }
}
