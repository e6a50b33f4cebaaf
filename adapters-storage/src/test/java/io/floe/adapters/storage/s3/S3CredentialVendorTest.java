package io.floe.adapters.storage.s3;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.floe.adapters.storage.StorageAdapters;
import io.floe.adapters.storage.servers.MotoServer;
import io.floe.adapters.storage.servers.TestPython;
import io.floe.application.port.out.CredentialVendor.Access;
import io.floe.application.port.out.CredentialVendor.VendedCredentials;
import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.CatalogName;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Vended S3 credentials from a real STS (moto in server mode): AssumeRole with a session policy
 * narrowed to the table. moto issues the session but does not enforce session policies, so the
 * policy STS received is read back from moto and judged with moto's own policy engine.
 */
class S3CredentialVendorTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ROLE = "arn:aws:iam::123456789012:role/floe-tables";
  private static final StoragePath TABLE = new StoragePath("org-1/ns-abc/observations-0f3e");

  private static MotoServer moto;
  private static BucketConfig bucket;
  private static StorageAdapters adapters;

  @BeforeAll
  static void start() {
    moto = new MotoServer();
    bucket = S3ProxyServer.bucketConfig("lake", moto.endpoint(),
        BucketCredentials.staticKeys(MotoServer.ACCESS_KEY, MotoServer.SECRET_KEY).withRole(ROLE));
    try (S3Client admin = S3Clients.s3(bucket)) {
      admin.createBucket(b -> b.bucket("lake"));
    }
    adapters = new StorageAdapters(Duration.ofMinutes(20));
  }

  @AfterAll
  static void stop() {
    if (adapters != null) {
      adapters.close();
    }
    if (moto != null) {
      moto.close();
    }
  }

  @Test
  void vendedCredentialsCarryEverythingS3FileIoNeedsAndExpireWhenStsSays() {
    Instant before = Instant.now();
    VendedCredentials vended =
        adapters.vend(bucket, TABLE, Access.READ_WRITE, "alice").orElseThrow();

    Map<String, String> config = vended.config();
    assertThat(config).containsKeys("s3.access-key-id", "s3.secret-access-key",
        "s3.session-token", "s3.session-token-expires-at-ms");
    assertThat(config).containsEntry("s3.endpoint", moto.endpoint())
        .containsEntry("s3.path-style-access", "true")
        .containsEntry("client.region", "us-east-1");
    assertThat(config.get("s3.access-key-id")).isNotEqualTo(MotoServer.ACCESS_KEY);
    assertThat(vended.expiresAt()).isCloseTo(before.plus(Duration.ofMinutes(20)),
        within(2, ChronoUnit.MINUTES));
    assertThat(Long.parseLong(config.get("s3.session-token-expires-at-ms")))
        .isEqualTo(vended.expiresAt().toEpochMilli());
  }

  @Test
  void anEngineWritesAndReadsTheTableWithVendedCredentials() throws Exception {
    Map<String, String> config =
        adapters.vend(bucket, TABLE, Access.READ_WRITE, "engine").orElseThrow().config();
    String file = bucket.uriOf(TABLE.resolve("data").resolve("part-0.parquet"));
    try (S3FileIO engineIo = new S3FileIO()) {
      engineIo.initialize(config);
      try (OutputStream out = engineIo.newOutputFile(file).create()) {
        out.write("rows".getBytes(UTF_8));
      }
      try (InputStream in = engineIo.newInputFile(file).newStream()) {
        assertThat(new String(in.readAllBytes(), UTF_8)).isEqualTo("rows");
      }
    }
    assertThat(adapters.open(bucket).exists(bucket.pathOf(file).orElseThrow())).isTrue();
  }

  @Test
  void stsReceivedAReadWritePolicyThatReachesOnlyTheTable() throws Exception {
    adapters.vend(bucket, TABLE, Access.READ_WRITE, "writer-1");
    JsonNode session = assumedRole("floe-writer-1");
    assertThat(session.get("role_arn").asText()).isEqualTo(ROLE);
    String policy = session.get("policy").asText();

    String inside = "arn:aws:s3:::lake/" + TABLE + "/metadata/v1.metadata.json";
    String neighbour = "arn:aws:s3:::lake/org-1/ns-abc/observations-0f3e-other/data/x";
    String namespaceFile = "arn:aws:s3:::lake/org-1/ns-abc/secret";
    String otherBucket = "arn:aws:s3:::other/" + TABLE + "/x";
    assertThat(verdicts(policy,
        check("s3:GetObject", inside), check("s3:PutObject", inside),
        check("s3:DeleteObject", inside), check("s3:GetObject", neighbour),
        check("s3:PutObject", namespaceFile), check("s3:GetObject", otherBucket),
        check("s3:ListBucket", "arn:aws:s3:::lake"), check("s3:DeleteBucket", "arn:aws:s3:::lake")))
        .containsExactly("PERMITTED", "PERMITTED", "PERMITTED", "NEUTRAL", "NEUTRAL", "NEUTRAL",
            "PERMITTED", "NEUTRAL");

    // moto's engine ignores StringLike, so the listing condition is checked by its shape.
    JsonNode listing = statement(policy, "ListTablePrefix");
    assertThat(listing.at("/Condition/StringLike/s3:prefix"))
        .containsExactly(JSON.getNodeFactory().textNode(TABLE.value()),
            JSON.getNodeFactory().textNode(TABLE + "/*"));
  }

  @Test
  void readOnlyCredentialsCannotChangeAnything() throws Exception {
    adapters.vend(bucket, TABLE, Access.READ_ONLY, "reader-1");
    String policy = assumedRole("floe-reader-1").get("policy").asText();
    String inside = "arn:aws:s3:::lake/" + TABLE + "/data/part-0.parquet";
    assertThat(verdicts(policy, check("s3:GetObject", inside), check("s3:PutObject", inside),
        check("s3:DeleteObject", inside), check("s3:AbortMultipartUpload", inside)))
        .containsExactly("PERMITTED", "NEUTRAL", "NEUTRAL", "NEUTRAL");
  }

  @Test
  void aSessionIsReusedWhileMostOfItsLifeIsLeft() {
    VendedCredentials first =
        adapters.vend(bucket, TABLE, Access.READ_ONLY, "looper").orElseThrow();
    VendedCredentials second =
        adapters.vend(bucket, TABLE, Access.READ_ONLY, "looper").orElseThrow();
    VendedCredentials writer =
        adapters.vend(bucket, TABLE, Access.READ_WRITE, "looper").orElseThrow();

    assertThat(second).isEqualTo(first);
    assertThat(writer.config().get("s3.session-token"))
        .isNotEqualTo(first.config().get("s3.session-token"));
    long sessions = 0;
    for (JsonNode role : moto.state().at("/sts/AssumedRole")) {
      if ("floe-looper".equals(role.path("session_name").asText())) {
        sessions++;
      }
    }
    assertThat(sessions).isEqualTo(2);
  }

  @Test
  void bucketsWithoutARoleOrOnLocalDiskVendNothing() {
    BucketConfig noRole = S3ProxyServer.bucketConfig("lake", moto.endpoint(),
        BucketCredentials.staticKeys(MotoServer.ACCESS_KEY, MotoServer.SECRET_KEY));
    BucketConfig local = new BucketConfig(UUID.randomUUID(), UUID.randomUUID(),
        new CatalogName("disk"), StoragePlatform.LOCAL, "/srv/floe", StoragePath.root(),
        Optional.empty(), Optional.empty(), false, BucketCredentials.none(), false);
    assertThat(adapters.vend(noRole, TABLE, Access.READ_WRITE, "alice")).isEmpty();
    assertThat(adapters.vend(local, TABLE, Access.READ_WRITE, "alice")).isEmpty();
  }

  @Test
  void sessionNamesKeepToWhatStsAccepts() {
    assertThat(S3CredentialVendor.sessionName("alice@example.com")).isEqualTo(
        "floe-alice@example.com");
    assertThat(S3CredentialVendor.sessionName("team/ops data")).isEqualTo("floe-team_ops_data");
    assertThat(S3CredentialVendor.sessionName("x".repeat(100))).hasSize(64);
  }

  private static JsonNode assumedRole(String sessionName) {
    for (JsonNode role : moto.state().at("/sts/AssumedRole")) {
      if (sessionName.equals(role.path("session_name").asText())) {
        return role;
      }
    }
    throw new AssertionError("moto holds no assumed-role session named " + sessionName);
  }

  private static JsonNode statement(String policy, String sid) throws Exception {
    for (JsonNode statement : JSON.readTree(policy).get("Statement")) {
      if (sid.equals(statement.path("Sid").asText())) {
        return statement;
      }
    }
    throw new AssertionError("no statement " + sid + " in " + policy);
  }

  private static ObjectNode check(String action, String resource) {
    return JSON.createObjectNode().put("action", action).put("resource", resource);
  }

  private static List<String> verdicts(String policy, ObjectNode... checks) throws Exception {
    ObjectNode task = JSON.createObjectNode().put("policy", policy);
    ArrayNode requests = task.putArray("requests");
    for (ObjectNode check : checks) {
      requests.add(check);
    }
    String output = TestPython.runScript("evaluate_iam_policy.py", task.toString(),
        "moto.iam.access_control");
    List<String> verdicts = new ArrayList<>();
    JSON.readTree(output.lines().reduce((a, b) -> b).orElseThrow())
        .forEach(v -> verdicts.add(v.asText()));
    return verdicts;
  }
}
