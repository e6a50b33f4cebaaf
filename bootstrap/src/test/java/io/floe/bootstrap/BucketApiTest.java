package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.floe.domain.OrgName;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An org's bucket configurations over HTTP: one default, secrets never shown, used ones kept. */
class BucketApiTest {
  @TempDir
  static Path directory;
  static FloeServer server;
  static ManagementApi api;

  @BeforeAll
  static void startServer() {
    server = FloeServer.start(ServerSettings.defaults(directory.resolve("data")).withPort(0)
        .withBucketIdentities(TestFloe.LOOPBACK_STORAGE));
    AtomicReference<String> token = new AtomicReference<>();
    server.provisionOrg(new OrgName("buckets"), directory.resolve("buckets/default"),
        Optional.empty(), token::set);
    api = new ManagementApi(server.port(), token.get());
  }

  @AfterAll
  static void stopServer() {
    server.close();
  }

  @Test
  void bucketsAreAddedChangedMadeDefaultAndRemoved() {
    ManagementApi.Reply created = api.post("/orgs/buckets/buckets", Map.of("nickname", "lake",
        "platform", "s3-compatible", "name", "lake-bucket", "prefix", "/floe/", "endpoint",
        "http://127.0.0.1:9000", "path_style", true, "auth", Map.of("method", "static",
            "access_key_id", "AKIAEXAMPLE", "secret_access_key", "very-secret")));
    assertThat(created.status()).as("%s", created.body()).isEqualTo(201);
    assertThat(created.body().path("prefix").asText()).isEqualTo("floe");
    assertThat(created.body().path("is_default").asBoolean()).isFalse();
    assertThat(created.body().path("auth").path("method").asText()).isEqualTo("static");
    assertThat(created.body().toString()).doesNotContain("very-secret").doesNotContain("AKIA");

    JsonNode patched = api.patch("/orgs/buckets/buckets/lake", Map.of("region", "eu-west-1"))
        .body();
    assertThat(patched.path("region").asText()).isEqualTo("eu-west-1");
    assertThat(patched.path("endpoint").asText()).isEqualTo("http://127.0.0.1:9000");

    JsonNode madeDefault = api.post("/orgs/buckets/buckets/" + created.body().path("id").asText()
        + "/default", Map.of()).body();
    assertThat(madeDefault.path("is_default").asBoolean()).isTrue();
    JsonNode all = api.get("/orgs/buckets/buckets").body();
    assertThat(StreamSupport.stream(all.spliterator(), false)
        .filter(bucket -> bucket.path("is_default").asBoolean())
        .map(bucket -> bucket.path("nickname").asText())).containsExactly("lake");

    api.post("/orgs/buckets/buckets/default/default", Map.of());
    assertThat(api.delete("/orgs/buckets/buckets/lake").status()).isEqualTo(204);
    assertThat(api.get("/orgs/buckets/buckets/lake").status()).isEqualTo(404);
  }

  @Test
  void azureIsStoredButRefusedForIceberg() {
    assertThat(api.post("/orgs/buckets/buckets", Map.of("nickname", "blobs", "platform", "azure",
        "name", "container")).status()).isEqualTo(201);
    ManagementApi.Reply refused = api.post("/orgs/buckets/iceberg/namespaces",
        Map.of("name", "on-azure", "bucket_nickname", "blobs"));
    assertThat(refused.status()).isEqualTo(400);
    assertThat(refused.detail()).contains("azure").contains("not supported for Iceberg");
  }

  @Test
  void aBucketHoldingANamespaceCannotBeRemovedOrMoved() throws Exception {
    api.post("/orgs/buckets/iceberg/namespaces", Map.of("name", "pinned",
        "bucket_nickname", "default"));
    assertThat(api.delete("/orgs/buckets/buckets/default").status()).isEqualTo(409);
    // Moving a local bucket is for operators only; not even they move one that is in use.
    assertThat(api.patch("/orgs/buckets/buckets/default", Map.of("prefix", "elsewhere"))
        .status()).isEqualTo(403);
    ManagementApi operator = new ManagementApi(server.port(),
        java.nio.file.Files.readString(server.settings().adminTokenFile()).strip());
    operator.post("/orgs/my-org/iceberg/namespaces", Map.of("name", "pinned"));
    assertThat(operator.patch("/orgs/my-org/buckets/default", Map.of("prefix", "elsewhere"))
        .status()).isEqualTo(409);
  }

  @Test
  void invalidBucketsAreValidationErrors() {
    assertThat(api.post("/orgs/buckets/buckets", Map.of("nickname", "x", "platform", "ftp",
        "name", "b")).status()).isEqualTo(422);
    assertThat(api.post("/orgs/buckets/buckets", Map.of("nickname", "x", "platform", "s3",
        "name", "bad/name")).status()).isEqualTo(422);
    assertThat(api.post("/orgs/buckets/buckets", Map.of("nickname", "default", "platform", "s3",
        "name", "b")).status()).isEqualTo(409);
  }
}
