package io.floe.adapters.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.CatalogName;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.aws.AwsClientProperties;
import org.apache.iceberg.aws.s3.S3FileIOProperties;
import org.apache.iceberg.aws.s3.VendedCredentialsProvider;
import org.apache.iceberg.gcp.GCPProperties;
import org.junit.jupiter.api.Test;

/**
 * What Floe adds to vended credentials so that Iceberg's own FileIOs renew them through the
 * table's credentials route, read back by Iceberg's own property classes as an engine's FileIO
 * reads them: S3FileIO then takes its credentials from a {@link VendedCredentialsProvider} that
 * calls the route (relative to the catalog's URI), GCSFileIO refreshes its token there. A local
 * bucket vends nothing and so names no route.
 */
class CredentialRefreshConfigTest {
  private static final String CATALOG = "http://127.0.0.1:8181/iceberg";
  private static final String ROUTE = "v1/acme/namespaces/sales/tables/orders/credentials";

  private final StorageAdapters adapters = new StorageAdapters();

  private static BucketConfig bucket(StoragePlatform platform) {
    return new BucketConfig(UUID.randomUUID(), UUID.randomUUID(), new CatalogName("data"),
        platform, platform == StoragePlatform.LOCAL ? "/srv/data" : "data", StoragePath.root(), Optional.empty(), Optional.of("us-east-1"), true,
        BucketCredentials.none(), false);
  }

  /** What an engine's FileIO is initialized with: the catalog's properties and the vended ones. */
  private static Map<String, String> engineProperties(Map<String, String> refresh,
      Map<String, String> vended) {
    Map<String, String> properties = new HashMap<>(vended);
    properties.putAll(refresh);
    properties.put(CatalogProperties.URI, CATALOG);
    return properties;
  }

  @Test
  void s3FileIoRenewsVendedCredentialsThroughTheTablesRoute() {
    for (StoragePlatform platform : new StoragePlatform[] {StoragePlatform.S3,
        StoragePlatform.S3_COMPATIBLE}) {
      Map<String, String> refresh = adapters.refreshConfig(bucket(platform), ROUTE);
      assertThat(refresh).containsEntry("client.refresh-credentials-endpoint", ROUTE)
          .containsEntry("client.refresh-credentials-enabled", "true");
      Map<String, String> properties = engineProperties(refresh, Map.of(
          S3FileIOProperties.ACCESS_KEY_ID, "key", S3FileIOProperties.SECRET_ACCESS_KEY,
          "secret", S3FileIOProperties.SESSION_TOKEN, "token",
          S3FileIOProperties.SESSION_TOKEN_EXPIRES_AT_MS, "4102444800000"));

      assertThat(new AwsClientProperties(properties).credentialsProvider("key", "secret",
          "token")).isInstanceOf(VendedCredentialsProvider.class);
    }
  }

  @Test
  void gcsFileIoRefreshesItsTokenThroughTheTablesRoute() {
    Map<String, String> refresh = adapters.refreshConfig(bucket(StoragePlatform.GCS), ROUTE);
    assertThat(refresh).containsEntry("gcs.oauth2.refresh-credentials-endpoint", ROUTE)
        .containsEntry("gcs.oauth2.refresh-credentials-enabled", "true");

    GCPProperties properties = new GCPProperties(engineProperties(refresh,
        Map.of(GCPProperties.GCS_OAUTH2_TOKEN, "token",
            GCPProperties.GCS_OAUTH2_TOKEN_EXPIRES_AT, "4102444800000")));

    assertThat(properties.oauth2RefreshCredentialsEnabled()).isTrue();
    assertThat(properties.oauth2RefreshCredentialsEndpoint()).contains(CATALOG + "/" + ROUTE);
  }

  @Test
  void aLocalBucketNamesNoRoute() {
    assertThat(adapters.refreshConfig(bucket(StoragePlatform.LOCAL), ROUTE)).isEmpty();
  }
}
