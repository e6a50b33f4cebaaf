package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.bootstrap.TestFloe.Org;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.checksums.DefaultChecksumAlgorithm;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The S3 endpoint of local buckets, driven by the AWS SDK: a repo's credentials, vended by the
 * arraylake client's credentials route, read, write, list, copy and delete beneath that repo's
 * prefix, conditional writes compare entity tags, and nothing else is reachable: not another
 * repo's prefix, not the bucket's root, not with an unsigned, forged or foreign key.
 */
class LocalBucketEndpointTest {
  private static final String BUCKET = "floe-local-bucket";

  @TempDir static Path directory;
  private static TestFloe floe;
  private static Org org;
  private static ManagementApi admin;
  private static String alpha;
  private static String beta;
  private static Map<String, String> alphaKeys;

  @BeforeAll
  static void start() {
    floe = TestFloe.start(directory);
    org = floe.newOrg();
    admin = new ManagementApi(floe.server().port(), org.token());
    alpha = createRepo("alpha");
    beta = createRepo("beta");
    alphaKeys = credentials(admin, "alpha");
  }

  @AfterAll
  static void stop() {
    floe.close();
  }

  @Test
  void theRepoCredentialsReadWriteListCopyAndDeleteBeneathItsPrefix() {
    try (S3Client s3 = client(alphaKeys.get("id"), alphaKeys.get("secret"))) {
      String key = alpha + "/chunks/c0";
      String etag = s3.putObject(b -> b.bucket(BUCKET).key(key),
          RequestBody.fromString("0123456789")).eTag();
      ResponseBytes<GetObjectResponse> whole = s3.getObjectAsBytes(b -> b.bucket(BUCKET)
          .key(key));
      assertThat(whole.asUtf8String()).isEqualTo("0123456789");
      assertThat(whole.response().eTag()).isEqualTo(etag);
      assertThat(s3.getObjectAsBytes(b -> b.bucket(BUCKET).key(key).range("bytes=2-5"))
          .asUtf8String()).isEqualTo("2345");
      assertThat(s3.headObject(b -> b.bucket(BUCKET).key(key)).contentLength()).isEqualTo(10);
      Path file = floe.localBucketDirectory(org.warehouse()).resolve(key);
      assertThat(file).hasContent("0123456789");

      s3.copyObject(b -> b.sourceBucket(BUCKET).sourceKey(key).destinationBucket(BUCKET)
          .destinationKey(alpha + "/chunks/c1"));
      ListObjectsV2Response listed = s3.listObjectsV2(b -> b.bucket(BUCKET)
          .prefix(alpha + "/chunks/"));
      assertThat(listed.contents()).extracting(o -> o.key())
          .containsExactly(alpha + "/chunks/c0", alpha + "/chunks/c1");
      ListObjectsV2Response folded = s3.listObjectsV2(b -> b.bucket(BUCKET)
          .prefix(alpha + "/").delimiter("/"));
      assertThat(folded.commonPrefixes()).extracting(p -> p.prefix())
          .contains(alpha + "/chunks/");

      s3.deleteObjects(b -> b.bucket(BUCKET).delete(Delete.builder().objects(
          ObjectIdentifier.builder().key(alpha + "/chunks/c1").build()).build()));
      s3.deleteObject(b -> b.bucket(BUCKET).key(key));
      assertThat(s3.listObjectsV2(b -> b.bucket(BUCKET).prefix(alpha + "/chunks/")).contents())
          .isEmpty();
    }
  }

  @Test
  void conditionalWritesCompareEntityTagsAsIcechunkCommitsNeed() {
    try (S3Client s3 = client(alphaKeys.get("id"), alphaKeys.get("secret"))) {
      String key = alpha + "/conditional";
      String first = s3.putObject(b -> b.bucket(BUCKET).key(key).ifNoneMatch("*"),
          RequestBody.fromString("v1")).eTag();
      assertThat(status(() -> s3.putObject(b -> b.bucket(BUCKET).key(key).ifNoneMatch("*"),
          RequestBody.fromString("again")))).isEqualTo(412);
      String second = s3.putObject(b -> b.bucket(BUCKET).key(key).ifMatch(first),
          RequestBody.fromString("v2")).eTag();
      assertThat(status(() -> s3.putObject(b -> b.bucket(BUCKET).key(key).ifMatch(first),
          RequestBody.fromString("lost update")))).isEqualTo(412);
      assertThat(s3.getObjectAsBytes(b -> b.bucket(BUCKET).key(key)).asUtf8String())
          .isEqualTo("v2");
      assertThat(second).isNotEqualTo(first);
    }
  }

  @Test
  void nothingOutsideTheRepoPrefixIsReachable() throws Exception {
    Path betaRepoFile = floe.localBucketDirectory(org.warehouse()).resolve(beta).resolve("repo");
    byte[] before = Files.readAllBytes(betaRepoFile);
    try (S3Client s3 = client(alphaKeys.get("id"), alphaKeys.get("secret"))) {
      for (String key : List.of(beta + "/repo", beta + "/new", "repo", alpha + "x/repo",
          ".floe-local/locks/x")) {
        assertThat(status(() -> s3.getObjectAsBytes(b -> b.bucket(BUCKET).key(key))))
            .as("GET %s", key).isEqualTo(403);
        assertThat(status(() -> s3.putObject(b -> b.bucket(BUCKET).key(key),
            RequestBody.fromString("mine")))).as("PUT %s", key).isEqualTo(403);
        assertThat(status(() -> s3.deleteObject(b -> b.bucket(BUCKET).key(key))))
            .as("DELETE %s", key).isEqualTo(403);
      }
      for (String prefix : List.of("", beta + "/", alpha.substring(0, 3))) {
        assertThat(status(() -> s3.listObjectsV2(b -> b.bucket(BUCKET).prefix(prefix))))
            .as("LIST %s", prefix).isEqualTo(403);
      }
      assertThat(status(() -> s3.copyObject(b -> b.sourceBucket(BUCKET).sourceKey(beta + "/repo")
          .destinationBucket(BUCKET).destinationKey(alpha + "/stolen")))).isEqualTo(403);
      assertThat(status(() -> s3.createBucket(b -> b.bucket(BUCKET)))).isEqualTo(501);
      assertThat(status(() -> s3.deleteBucket(b -> b.bucket(BUCKET)))).isEqualTo(501);
    }
    assertThat(Files.readAllBytes(betaRepoFile)).isEqualTo(before);
    assertThat(floe.localBucketDirectory(org.warehouse()).resolve("repo")).doesNotExist();
    assertThat(floe.localBucketDirectory(org.warehouse()).resolve(beta).resolve("new"))
        .doesNotExist();
  }

  @Test
  void unsignedForgedAndForeignCredentialsAreRefused() throws Exception {
    String key = beta + "/repo";
    HttpResponse<String> unsigned = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create(server() + "/" + BUCKET + "/" + key)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(unsigned.statusCode()).isEqualTo(403);
    assertThat(unsigned.body()).contains("<Code>AccessDenied</Code>");

    String id = alphaKeys.get("id");
    String tampered = id.substring(0, 10) + (id.charAt(10) == 'A' ? 'g' : 'A') + id.substring(11);
    for (Map.Entry<String, String> keys : Map.of(
        "AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        org.token(), org.token(),
        id, "not-the-secret",
        tampered, alphaKeys.get("secret")).entrySet()) {
      try (S3Client s3 = client(keys.getKey(), keys.getValue())) {
        assertThat(status(() -> s3.getObjectAsBytes(b -> b.bucket(BUCKET).key(
            alpha + "/repo")))).as("key id %s", keys.getKey()).isEqualTo(403);
      }
    }
  }

  @Test
  void aStreamedBodyWithATrailingChecksumIsRefusedWithWhatIsTaken() {
    try (S3Client s3 = S3Client.builder().endpointOverride(URI.create(server()))
        .forcePathStyle(true).region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(
            alphaKeys.get("id"), alphaKeys.get("secret")))).build()) {
      assertThatThrownBy(() -> s3.putObject(b -> b.bucket(BUCKET).key(alpha + "/trailer"),
          RequestBody.fromString("x")))
          .isInstanceOf(S3Exception.class).hasMessageContaining("UNSIGNED-PAYLOAD");
    }
    assertThat(floe.localBucketDirectory(org.warehouse()).resolve(alpha).resolve("trailer"))
        .doesNotExist();
  }

  @Test
  void aSignedChunkedUploadIsStoredOnlyWhenEveryChunkAndItsLengthHold() throws Exception {
    byte[] data = new byte[300_000];
    new java.util.Random(7).nextBytes(data);
    SignedRequest good = chunked(alpha + "/chunked/good", data, false);
    assertThat(good.request().firstMatchingHeader("x-amz-content-sha256"))
        .contains("STREAMING-AWS4-HMAC-SHA256-PAYLOAD");
    HttpResponse<String> stored = send(good.request(), payload(good));
    assertThat(stored.statusCode()).as(stored.body()).isEqualTo(200);
    try (S3Client s3 = client(alphaKeys.get("id"), alphaKeys.get("secret"))) {
      assertThat(s3.getObjectAsBytes(b -> b.bucket(BUCKET).key(alpha + "/chunked/good"))
          .asByteArray()).isEqualTo(data);
    }

    String zeroes = "0".repeat(64);
    Map<String, java.util.function.Function<byte[], byte[]>> breaks = Map.of(
        "zeroed", wire -> new String(wire, StandardCharsets.ISO_8859_1)
            .replaceAll("chunk-signature=[0-9a-f]{64}", "chunk-signature=" + zeroes)
            .getBytes(StandardCharsets.ISO_8859_1),
        "tampered", wire -> {
          byte[] copy = wire.clone();
          copy[copy.length / 2] ^= 1;
          return copy;
        },
        "truncated", wire -> java.util.Arrays.copyOf(wire, wire.length - 120));
    for (Map.Entry<String, java.util.function.Function<byte[], byte[]>> broken
        : breaks.entrySet()) {
      String key = alpha + "/chunked/" + broken.getKey();
      SignedRequest signed = chunked(key, data, false);
      HttpResponse<String> refused = send(signed.request(),
          broken.getValue().apply(payload(signed)));
      assertThat(refused.statusCode()).as("%s: %s", broken.getKey(), refused.body())
          .isBetween(400, 499);
      assertThat(refused.body()).contains("<Error>");
      assertThat(floe.localBucketDirectory(org.warehouse()).resolve(key)).doesNotExist();
    }
    // A decoded length other than the chunks': the signature covers it, and the chunks must
    // add up to it.
    SignedRequest longer = chunked(alpha + "/chunked/longer", data, false);
    HttpResponse<String> refused = send(longer.request().toBuilder()
        .putHeader("x-amz-decoded-content-length", Integer.toString(data.length + 1)).build(),
        payload(longer));
    assertThat(refused.statusCode()).as(refused.body()).isBetween(400, 499);
    assertThat(floe.localBucketDirectory(org.warehouse()).resolve(alpha).resolve("chunked"))
        .isDirectoryNotContaining(path -> !path.getFileName().toString().equals("good"));
  }

  @Test
  void anUnsignedChunkedUploadIsStoredOnlyWhenItsTrailingChecksumHolds() throws Exception {
    byte[] data = "an unsigned body with a trailing CRC32".getBytes(StandardCharsets.UTF_8);
    SignedRequest good = chunked(alpha + "/trailer/good", data, true);
    assertThat(good.request().firstMatchingHeader("x-amz-content-sha256"))
        .contains("STREAMING-UNSIGNED-PAYLOAD-TRAILER");
    HttpResponse<String> stored = send(good.request(), payload(good));
    assertThat(stored.statusCode()).as(stored.body()).isEqualTo(200);
    assertThat(Files.readAllBytes(floe.localBucketDirectory(org.warehouse()).resolve(alpha)
        .resolve("trailer/good"))).isEqualTo(data);
    SignedRequest other = chunked(alpha + "/trailer/bad", data, true);
    byte[] wire = payload(other);
    // The same length, another byte: the trailer's checksum no longer holds.
    String text = new String(wire, StandardCharsets.ISO_8859_1).replace("unsigned", "UNSIGNED");
    HttpResponse<String> refused = send(other.request(),
        text.getBytes(StandardCharsets.ISO_8859_1));
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
    assertThat(refused.body()).contains("BadDigest");
    assertThat(floe.localBucketDirectory(org.warehouse()).resolve(alpha).resolve("trailer/bad"))
        .doesNotExist();
  }

  @Test
  void aKeyTooLongForTheFileSystemOrForS3IsTheClientsError() {
    try (S3Client s3 = client(alphaKeys.get("id"), alphaKeys.get("secret"))) {
      for (String key : List.of(alpha + "/" + "k".repeat(256),
          alpha + ("/" + "d".repeat(200)).repeat(6))) {
        assertThat(status(() -> s3.putObject(b -> b.bucket(BUCKET).key(key),
            RequestBody.fromString("x")))).as("%s bytes", key.length()).isEqualTo(400);
        assertThat(status(() -> s3.getObjectAsBytes(b -> b.bucket(BUCKET).key(key))))
            .isEqualTo(400);
      }
      s3.putObject(b -> b.bucket(BUCKET).key(alpha + "/" + "k".repeat(255)),
          RequestBody.fromString("fits"));
    }
  }

  /**
   * A PUT of {@code data} signed by the AWS SDK's own signer in aws-chunked framing. The signer
   * leaves the body unsigned only over https: the scheme is signed nowhere, so the unsigned form
   * is signed as for https and sent over plain HTTP.
   */
  private static SignedRequest chunked(String key, byte[] data, boolean unsignedWithTrailer) {
    String base = unsignedWithTrailer ? server().replace("http:", "https:") : server();
    SdkHttpRequest request = SdkHttpRequest.builder().method(SdkHttpMethod.PUT)
        .uri(URI.create(base + "/" + BUCKET + "/" + key))
        .putHeader("Content-Length", Integer.toString(data.length)).build();
    return AwsV4HttpSigner.create().sign(r -> {
      r.identity(AwsCredentialsIdentity.create(alphaKeys.get("id"), alphaKeys.get("secret")))
          .request(request).payload(ContentStreamProvider.fromByteArray(data))
          .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "s3")
          .putProperty(AwsV4HttpSigner.REGION_NAME, "us-east-1")
          .putProperty(AwsV4HttpSigner.CHUNK_ENCODING_ENABLED, true)
          .putProperty(AwsV4HttpSigner.PAYLOAD_SIGNING_ENABLED, !unsignedWithTrailer);
      if (unsignedWithTrailer) {
        r.putProperty(AwsV4HttpSigner.CHECKSUM_ALGORITHM, DefaultChecksumAlgorithm.CRC32);
      }
    });
  }

  private static byte[] payload(SignedRequest signed) throws java.io.IOException {
    try (java.io.InputStream in = signed.payload().orElseThrow().newStream()) {
      return in.readAllBytes();
    }
  }

  private static HttpResponse<String> send(SdkHttpRequest request, byte[] body)
      throws Exception {
    HttpRequest.Builder built = HttpRequest.newBuilder(URI.create(request.getUri().toString()
            .replace("https:", "http:")))
        .method(request.method().name(), HttpRequest.BodyPublishers.ofByteArray(body));
    request.headers().forEach((name, values) -> {
      if (!java.util.Set.of("host", "content-length", "connection", "expect")
          .contains(name.toLowerCase(java.util.Locale.ROOT))) {
        values.forEach(value -> built.header(name, value));
      }
    });
    return HttpClient.newHttpClient().send(built.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aTokenWithoutAccessToTheRepoGetsNoCredentials() {
    OrgAccess access = new OrgAccess(floe, org);
    Org member = access.newUser("dora");
    ManagementApi asMember = new ManagementApi(floe.server().port(), member.token());
    ManagementApi.Reply refused = asMember.get("/repos/" + org.warehouse() + "/alpha"
        + "/bucket-credentials");
    assertThat(refused.status()).as("%s", refused.body()).isIn(403, 404);
    try (S3Client s3 = client(member.token(), member.token())) {
      assertThat(status(() -> s3.getObjectAsBytes(b -> b.bucket(BUCKET).key(alpha + "/repo"))))
          .isEqualTo(403);
    }
  }

  private static String createRepo(String name) {
    ManagementApi.Reply created = admin.post("/orgs/" + org.warehouse() + "/repos",
        Map.of("name", name));
    assertThat(created.status()).as("%s", created.body()).isEqualTo(201);
    return created.body().path("prefix").asText();
  }

  private static Map<String, String> credentials(ManagementApi api, String repo) {
    ManagementApi.Reply vended = api.get("/repos/" + org.warehouse() + "/" + repo
        + "/bucket-credentials");
    assertThat(vended.status()).as("%s", vended.body()).isEqualTo(200);
    assertThat(vended.body().path("expiration").asText()).isNotEmpty();
    return Map.of("id", vended.body().path("aws_access_key_id").asText(),
        "secret", vended.body().path("aws_secret_access_key").asText());
  }

  /**
   * The SDK as an S3-compatible store is usually reached over plain HTTP: checksums only where
   * required, so a PUT's body is signed by its SHA-256 (its default, a signed streaming body with
   * a trailing checksum, is a form the endpoint refuses with a 400 saying which it takes).
   */
  private static S3Client client(String keyId, String secret) {
    return S3Client.builder()
        .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
        .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
        .endpointOverride(URI.create(server()))
        .forcePathStyle(true)
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(
            AwsBasicCredentials.create(keyId, secret)))
        .build();
  }

  private static String server() {
    return "http://127.0.0.1:" + floe.server().port();
  }

  private static int status(Runnable call) {
    try {
      call.run();
      return 200;
    } catch (S3Exception e) {
      return e.statusCode();
    }
  }

}
