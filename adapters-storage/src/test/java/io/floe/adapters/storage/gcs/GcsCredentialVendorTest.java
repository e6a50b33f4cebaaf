package io.floe.adapters.storage.gcs;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.auth.oauth2.AccessToken;
import com.google.auth.oauth2.GoogleCredentials;
import io.floe.adapters.storage.StorageAdapters;
import io.floe.adapters.storage.servers.GcsEmulator;
import io.floe.application.port.out.CredentialVendor.Access;
import io.floe.application.port.out.CredentialVendor.VendedCredentials;
import io.floe.domain.BucketConfig;
import io.floe.domain.StoragePath;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.gcp.gcs.GCSFileIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * GCS tokens downscoped to a table: the access boundary sent to the token exchange, the token
 * handed to engines, and Iceberg's GCSFileIO using it on a GCS emulator. The token exchange is a
 * stand-in (no emulator serves it), so the boundary's enforcement is Google's, not shown here.
 */
class GcsCredentialVendorTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final StoragePath TABLE = new StoragePath("org-1/ns-abc/readings-9f1");

  private static GcsEmulator emulator;
  private static BucketConfig bucket;
  private static StandInTokenService sts;
  private GcsCredentialVendor vendor;

  @BeforeAll
  static void start() throws Exception {
    emulator = GcsEmulator.fakeGcsServer();
    bucket = GcsContractSupport.newBucket(emulator.endpoint(), "lake");
    sts = new StandInTokenService();
  }

  @AfterAll
  static void stop() {
    if (sts != null) {
      sts.close();
    }
    if (emulator != null) {
      emulator.close();
    }
  }

  @BeforeEach
  void newVendor() {
    sts.exchanges.clear();
    GoogleCredentials serverIdentity = GoogleCredentials.create(new AccessToken("server-token",
        Date.from(Instant.now().plus(Duration.ofHours(1)))));
    vendor = new GcsCredentialVendor(b -> Optional.of(serverIdentity), sts.endpoint());
  }

  @Test
  void theTokenExchangeIsAskedForATokenBoundToTheTable() throws Exception {
    Instant before = Instant.now();
    VendedCredentials vended =
        vendor.vend(bucket, TABLE, Access.READ_WRITE, "alice").orElseThrow();

    assertThat(vended.config()).containsEntry("gcs.oauth2.token", "downscoped-1")
        .containsEntry("gcs.service.host", emulator.endpoint());
    assertThat(vended.expiresAt()).isCloseTo(
        before.plusSeconds(StandInTokenService.EXPIRES_IN_SECONDS), within(1, ChronoUnit.MINUTES));
    assertThat(vended.config().get("gcs.oauth2.token-expires-at"))
        .isEqualTo(Long.toString(vended.expiresAt().toEpochMilli()));

    Map<String, String> form = sts.exchanges.get(0);
    assertThat(form).containsEntry("grant_type",
            "urn:ietf:params:oauth:grant-type:token-exchange")
        .containsEntry("subject_token", "server-token")
        .containsEntry("subject_token_type", "urn:ietf:params:oauth:token-type:access_token");
    JsonNode rule = JSON.readTree(form.get("options")).at("/accessBoundary/accessBoundaryRules/0");
    assertThat(rule.get("availableResource").asText())
        .isEqualTo("//storage.googleapis.com/projects/_/buckets/lake");
    assertThat(rule.get("availablePermissions").get(0).asText())
        .isEqualTo("inRole:roles/storage.objectAdmin");
    assertThat(rule.at("/availabilityCondition/expression").asText()).isEqualTo(
        "resource.name.startsWith('projects/_/buckets/lake/objects/" + TABLE + "/')"
            + " || api.getAttribute('storage.googleapis.com/objectListPrefix', '')"
            + ".startsWith('" + TABLE + "/')");
  }

  @Test
  void readersGetTheViewerRoleOnly() throws Exception {
    vendor.vend(bucket, TABLE, Access.READ_ONLY, "bob");
    JsonNode rule = JSON.readTree(sts.exchanges.get(0).get("options"))
        .at("/accessBoundary/accessBoundaryRules/0");
    assertThat(rule.get("availablePermissions")).hasSize(1);
    assertThat(rule.get("availablePermissions").get(0).asText())
        .isEqualTo("inRole:roles/storage.objectViewer");
  }

  @Test
  void quotesInALocationCannotEndTheConditionsString() throws Exception {
    vendor.vend(bucket, new StoragePath("org/it's') || true || ('x"), Access.READ_ONLY, "eve");
    String expression = JSON.readTree(sts.exchanges.get(0).get("options"))
        .at("/accessBoundary/accessBoundaryRules/0/availabilityCondition/expression").asText();
    assertThat(expression).contains("objects/org/it\\'s\\') || true || (\\'x/')");
  }

  @Test
  void aTokenIsReusedWhileMostOfItsLifeIsLeft() {
    VendedCredentials first = vendor.vend(bucket, TABLE, Access.READ_ONLY, "loop").orElseThrow();
    VendedCredentials again = vendor.vend(bucket, TABLE, Access.READ_ONLY, "loop").orElseThrow();
    assertThat(again).isEqualTo(first);
    assertThat(sts.exchanges).hasSize(1);
  }

  @Test
  void anEngineWritesAndReadsTheTableWithTheVendedToken() throws Exception {
    Map<String, String> config = new HashMap<>(
        vendor.vend(bucket, TABLE, Access.READ_WRITE, "engine").orElseThrow().config());
    String file = bucket.uriOf(TABLE.resolve("data").resolve("part-0.parquet"));
    try (GCSFileIO engineIo = new GCSFileIO()) {
      engineIo.initialize(config);
      try (OutputStream out = engineIo.newOutputFile(file).create()) {
        out.write("rows".getBytes(UTF_8));
      }
      try (InputStream in = engineIo.newInputFile(file).newStream()) {
        assertThat(new String(in.readAllBytes(), UTF_8)).isEqualTo("rows");
      }
    }
    try (StorageAdapters adapters = new StorageAdapters()) {
      assertThat(adapters.open(bucket).exists(bucket.pathOf(file).orElseThrow())).isTrue();
    }
  }
}
