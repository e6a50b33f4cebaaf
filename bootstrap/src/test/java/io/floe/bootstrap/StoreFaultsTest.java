package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.floe.adapters.storage.servers.FaultProxy;
import io.floe.adapters.storage.servers.FaultProxy.Fault;
import io.floe.adapters.storage.servers.MotoServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A table on an S3-compatible store (moto) behind a proxy that fails on demand: a commit whose
 * new metadata file the store will not take is answered 503 with {@code Retry-After}, naming the
 * bucket configuration, and the table stays at the version it had.
 */
@FloeServerTest
class StoreFaultsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static TestFloe floe;
  private static MotoServer moto;
  private static FaultProxy proxy;

  @BeforeAll
  static void start(TestFloe shared) throws Exception {
    floe = shared;
    moto = new MotoServer();
    proxy = new FaultProxy(moto.endpoint());
    try (S3Client s3 = S3Client.builder().endpointOverride(URI.create(moto.endpoint()))
        .region(Region.US_EAST_1).forcePathStyle(true)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(
            MotoServer.ACCESS_KEY, MotoServer.SECRET_KEY))).build()) {
      s3.createBucket(b -> b.bucket("lake"));
    }
  }

  @AfterAll
  static void stop() throws Exception {
    proxy.close();
    moto.close();
  }

  @Test
  void aCommitTheStoreWillNotTakeIsA503NamingTheBucketAndTheTableKeepsItsVersion()
      throws Exception {
    TestFloe.Org org = floe.newOrg();
    OrgAccess access = new OrgAccess(floe, org);
    IcebergHttp catalog = new IcebergHttp(floe, org);
    ManagementApi.Reply bucket = access.admin().post("/orgs/" + org.warehouse() + "/buckets",
        Map.of("nickname", "flaky-lake", "platform", "s3-compatible", "name", "lake",
            "endpoint", proxy.endpoint(), "region", "us-east-1", "path_style", true,
            "auth", Map.of("method", "static", "access_key_id", MotoServer.ACCESS_KEY,
                "secret_access_key", MotoServer.SECRET_KEY)));
    assertThat(bucket.status()).as("%s", bucket.body()).isEqualTo(201);
    assertThat(catalog.post("/namespaces", "{\"namespace\":[\"weather\"],"
        + "\"properties\":{\"floe.bucket\":\"flaky-lake\"}}").status()).isEqualTo(200);
    IcebergHttp.Reply created = catalog.post("/namespaces/weather/tables", "{\"name\":\"obs\","
        + "\"schema\":{\"type\":\"struct\",\"schema-id\":0,\"fields\":[{\"id\":1,"
        + "\"name\":\"id\",\"required\":true,\"type\":\"long\"}]}}");
    assertThat(created.status()).as("%s", created.body()).isEqualTo(200);
    String before = created.body().path("metadata-location").asText();

    proxy.fault(Fault.SLOW_DOWN, requestLine -> requestLine.startsWith("PUT "));
    HttpResponse<String> commit;
    try {
      commit = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(floe.uri()
              + "/v1/" + org.warehouse() + "/namespaces/weather/tables/obs"))
          .header("Authorization", "Bearer " + org.token())
          .header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString("{\"requirements\":[],\"updates\":[{"
              + "\"action\":\"set-properties\",\"updates\":{\"owner\":\"ada\"}}]}"))
          .build(), HttpResponse.BodyHandlers.ofString());
    } finally {
      proxy.fault(Fault.NONE);
    }

    assertThat(commit.statusCode()).as(commit.body()).isEqualTo(503);
    assertThat(commit.headers().firstValue("Retry-After")).isPresent();
    JsonNode error = JSON.readTree(commit.body()).path("error");
    assertThat(error.path("type").asText()).isEqualTo("ServiceUnavailableException");
    assertThat(error.path("message").asText()).contains("'flaky-lake'")
        .doesNotContain("127.0.0.1");
    assertThat(proxy.faulted()).isPositive();

    IcebergHttp.Reply loaded = catalog.get("/namespaces/weather/tables/obs");
    assertThat(loaded.status()).isEqualTo(200);
    assertThat(loaded.body().path("metadata-location").asText()).isEqualTo(before);
    assertThat(loaded.body().path("metadata").path("properties").has("owner")).isFalse();
  }
}
