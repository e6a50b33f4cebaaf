package io.floe.adapters.storage.s3;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.floe.adapters.storage.StorageAdapters;
import io.floe.application.port.out.BucketStorage;
import io.floe.application.port.out.CredentialVendor.Access;
import io.floe.domain.BucketConfig;
import io.floe.domain.StoragePath;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.rest.requests.ImmutableRemoteSignRequest;
import org.apache.iceberg.rest.responses.RemoteSignResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The attack on a shared bucket, sent to an S3 server that checks every signature and payload
 * hash (s3proxy): a writer of one table has the catalog sign a batch delete of its own keys, then
 * sends the store another body, naming another org's table file. Before the signer bound its
 * signature to the body it checked, the store deleted that file.
 */
class S3BatchDeleteReplayTest {
  private static final StoragePath TABLE = new StoragePath("org-a/sales/orders-3c1d");
  private static final StoragePath OWN = TABLE.resolve("data").resolve("part-0.parquet");
  private static final StoragePath VICTIM =
      new StoragePath("org-b/finance/ledger-9f2e/metadata/victim.json");
  /** Headers the client's HTTP stack sets itself. */
  private static final Set<String> SET_BY_HTTP_CLIENT = Set.of("host", "content-length");

  private static S3ProxyServer s3;
  private static BucketConfig bucket;
  private static StorageAdapters adapters;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeAll
  static void start() throws Exception {
    s3 = new S3ProxyServer();
    bucket = s3.newBucket("shared");
    adapters = new StorageAdapters();
  }

  @AfterAll
  static void stop() throws Exception {
    adapters.close();
    s3.close();
  }

  @BeforeEach
  void files() {
    storage().put(OWN, "mine".getBytes(UTF_8));
    storage().put(VICTIM, "theirs".getBytes(UTF_8));
  }

  @Test
  void aSignatureForOneBodyDeletesNothingWhenSentWithAnother() throws Exception {
    RemoteSignResponse signed = sign(Map.of(), deleteOf(OWN));

    // The other body carries its own Content-MD5, which S3 requires and checks, unsigned.
    String other = deleteOf(VICTIM);
    HttpResponse<String> answer = send(signed, other,
        Map.of("Content-MD5", Digests.base64(Digests.md5(other))));

    assertThat(answer.statusCode()).as(answer.body()).isBetween(400, 499);
    assertThat(storage().exists(VICTIM)).isTrue();
    assertThat(storage().exists(OWN)).isTrue();
  }

  @Test
  void aClientDigestOfAnotherBodyIsNotSigned() throws Exception {
    String other = deleteOf(VICTIM);
    Optional<RemoteSignResponse> signed = trySign(
        Map.of("Content-MD5", List.of(Digests.base64(Digests.md5(other)))), deleteOf(OWN));
    if (signed.isPresent()) {
      // What the old signer allowed: the store checks the body against the signed digest.
      send(signed.get(), other, Map.of());
    }

    assertThat(storage().exists(VICTIM)).isTrue();
    assertThat(signed).as("a digest of a body the catalog was not shown is refused").isEmpty();
  }

  @Test
  void theBodyShownIsDeletedWithItsSignature() throws Exception {
    String body = deleteOf(OWN);
    RemoteSignResponse signed = sign(
        Map.of("Content-MD5", List.of(Digests.base64(Digests.md5(body)))), body);

    HttpResponse<String> answer = send(signed, body, Map.of());

    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    assertThat(storage().exists(OWN)).isFalse();
    assertThat(storage().exists(VICTIM)).isTrue();
  }

  private static String deleteOf(StoragePath key) {
    return "<Delete xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Object><Key>"
        + key.value() + "</Key></Object></Delete>";
  }

  private RemoteSignResponse sign(Map<String, List<String>> headers, String body) {
    return trySign(headers, body).orElseThrow();
  }

  private Optional<RemoteSignResponse> trySign(Map<String, List<String>> headers, String body) {
    try {
      return Optional.of(adapters.sign(bucket, TABLE, Access.READ_WRITE,
          ImmutableRemoteSignRequest.builder().method("POST")
              .uri(URI.create(s3.endpoint() + "/shared?delete")).region("us-east-1")
              .headers(headers).properties(Map.of()).body(body).provider("s3").build()));
    } catch (ForbiddenException refused) {
      return Optional.empty();
    }
  }

  /** Sends {@code body} with the signed headers, and {@code extra} ones the sender adds. */
  private HttpResponse<String> send(RemoteSignResponse signed, String body,
      Map<String, String> extra) throws IOException, InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(signed.uri())
        .POST(HttpRequest.BodyPublishers.ofString(body, UTF_8));
    signed.headers().forEach((name, values) -> {
      if (!SET_BY_HTTP_CLIENT.contains(name.toLowerCase(Locale.ROOT))) {
        values.forEach(value -> request.header(name, value));
      }
    });
    extra.forEach(request::header);
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static BucketStorage storage() {
    return adapters.open(bucket);
  }
}
