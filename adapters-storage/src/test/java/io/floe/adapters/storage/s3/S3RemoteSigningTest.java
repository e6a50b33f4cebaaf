package io.floe.adapters.storage.s3;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.adapters.storage.StorageAdapters;
import io.floe.application.port.out.BucketStorage;
import io.floe.application.port.out.CredentialVendor.Access;
import io.floe.domain.BucketConfig;
import io.floe.domain.StoragePath;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.io.FileInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Iceberg's own S3FileIO, configured for remote signing as the catalog's load response
 * configures it, writing and reading on an S3-compatible server that checks every signature.
 * The engine holds no key: every request it makes is signed by the catalog, or not at all.
 */
class S3RemoteSigningTest {
  private static final StoragePath TABLE = new StoragePath("org/ns/t-3c1d");

  private static S3ProxyServer s3;
  private static BucketConfig bucket;
  private static StorageAdapters adapters;
  private static SignEndpoint endpoint;
  private S3FileIO engine;

  @BeforeAll
  static void start() throws Exception {
    s3 = new S3ProxyServer();
    bucket = s3.newBucket("warehouse");
    adapters = new StorageAdapters();
    endpoint = new SignEndpoint(adapters, bucket, TABLE);
  }

  @AfterAll
  static void stop() throws Exception {
    endpoint.close();
    adapters.close();
    s3.close();
  }

  @BeforeEach
  void openEngine() {
    endpoint.access(Access.READ_WRITE);
    endpoint.refusals.clear();
    Map<String, String> config = new HashMap<>(adapters.remoteSigningConfig(bucket));
    config.put("uri", endpoint.catalogUri());
    config.put("signer.endpoint", SignEndpoint.PATH);
    config.put("token", SignEndpoint.TOKEN);
    engine = new S3FileIO();
    engine.initialize(config);
  }

  @AfterEach
  void closeEngine() {
    engine.close();
  }

  @Test
  void theConfigCarriesNoCredentialAndTurnsSigningOn() {
    assertThat(adapters.remoteSigningConfig(bucket))
        .containsEntry("s3.remote-signing-enabled", "true")
        .containsEntry("s3.endpoint", s3.endpoint())
        .doesNotContainKeys("s3.access-key-id", "s3.secret-access-key", "s3.session-token");
  }

  @Test
  void anEngineWritesListsReadsAndDeletesInsideTheTable() throws Exception {
    String first = uri("data/part-0.parquet");
    String second = uri("data/part-1.parquet");
    write(first, "zero");
    write(second, "one");

    assertThat(read(first)).isEqualTo("zero");
    List<String> listed = new ArrayList<>();
    for (FileInfo file : engine.listPrefix(uri("data/"))) {
      listed.add(file.location());
    }
    assertThat(listed).containsExactlyInAnyOrder(first, second);

    engine.deleteFiles(List.of(first, second));
    assertThat(storage().isEmptyUnder(TABLE.resolve("data"))).isTrue();
    assertThat(endpoint.refusals).isEmpty();
    assertThat(endpoint.signed).extracting(request -> request.method())
        .contains("PUT", "GET", "POST");
  }

  @Test
  void theServerChecksSignaturesSoForgedOnesFail() {
    try (S3FileIO forger = new S3FileIO()) {
      Map<String, String> config = new HashMap<>(adapters.remoteSigningConfig(bucket));
      config.remove("s3.remote-signing-enabled");
      config.put("s3.access-key-id", S3ProxyServer.ACCESS_KEY);
      config.put("s3.secret-access-key", "guessed");
      forger.initialize(config);
      assertThatThrownBy(() -> {
        try (OutputStream out = forger.newOutputFile(uri("data/unsigned")).create()) {
          out.write(1);
        }
      }).hasStackTraceContaining("403");
    }
    assertThat(storage().exists(TABLE.resolve("data").resolve("unsigned"))).isFalse();
  }

  @Test
  void aKeyOutsideTheTableIsRefusedAndNothingIsWritten() {
    StoragePath neighbour = new StoragePath("org/ns/t-3c1d-other/data/stolen.parquet");
    assertThatThrownBy(() -> write(bucket.uriOf(neighbour), "x"))
        .hasStackTraceContaining("Not signing this storage request");
    assertThat(storage().exists(neighbour)).isFalse();
    assertThat(endpoint.refusals).anyMatch(refusal -> refusal.contains("outside the table"));
  }

  @Test
  void readingOutsideTheTableIsRefused() {
    StoragePath secret = new StoragePath("org/other-namespace/secret.json");
    storage().put(secret, "secret".getBytes(UTF_8));
    assertThatThrownBy(() -> read(bucket.uriOf(secret)))
        .hasStackTraceContaining("Not signing this storage request");
  }

  @Test
  void aReaderCanReadButNotWrite() throws Exception {
    write(uri("metadata/v1.metadata.json"), "{}");
    endpoint.access(Access.READ_ONLY);

    assertThat(read(uri("metadata/v1.metadata.json"))).isEqualTo("{}");
    assertThatThrownBy(() -> write(uri("metadata/v2.metadata.json"), "{}"))
        .hasStackTraceContaining("may only read");
    assertThat(storage().exists(TABLE.resolve("metadata").resolve("v2.metadata.json"))).isFalse();
  }

  private String uri(String relative) {
    return bucket.uriOf(TABLE) + "/" + relative;
  }

  private void write(String location, String text) throws Exception {
    try (OutputStream out = engine.newOutputFile(location).create()) {
      out.write(text.getBytes(UTF_8));
    }
  }

  private String read(String location) throws Exception {
    try (InputStream in = engine.newInputFile(location).newStream()) {
      return new String(in.readAllBytes(), UTF_8);
    }
  }

  private static BucketStorage storage() {
    return adapters.open(bucket);
  }
}
