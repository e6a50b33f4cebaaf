package io.floe.adapters.storage.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.port.out.CredentialVendor.Access;
import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.CatalogName;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.rest.requests.ImmutableRemoteSignRequest;
import org.apache.iceberg.rest.requests.RemoteSignRequest;
import org.apache.iceberg.rest.responses.RemoteSignResponse;
import org.junit.jupiter.api.Test;

/** What the signer refuses, request by request, without any server: each is a way out. */
class S3SigningRulesTest {
  private static final StoragePath TABLE = new StoragePath("org/ns/t");
  private static final BucketConfig ON_ENDPOINT = S3ProxyServer.bucketConfig("lake",
      "http://127.0.0.1:9000", BucketCredentials.staticKeys("AKID", "SECRET"));
  private static final BucketConfig ON_AWS = new BucketConfig(UUID.randomUUID(),
      UUID.randomUUID(), new CatalogName("aws"), StoragePlatform.S3, "lake", StoragePath.root(),
      Optional.empty(), Optional.of("eu-west-1"), false,
      BucketCredentials.staticKeys("AKID", "SECRET"), false);

  private static final String DELETE = "http://127.0.0.1:9000/lake?delete";
  private static final String INSIDE = "<Delete xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
      + "<Object><Key>org/ns/t/a</Key></Object><Object><Key>org/ns/t/b</Key></Object></Delete>";

  private final S3RemoteSigner signer = new S3RemoteSigner();

  @Test
  void signsObjectRequestsInsideTheTableInBothAddressingStyles() {
    RemoteSignResponse signed = signer.sign(ON_ENDPOINT, TABLE, Access.READ_ONLY,
        request("GET", "http://127.0.0.1:9000/lake/org/ns/t/data/a.parquet"));
    assertThat(signed.headers()).containsKeys("Authorization", "x-amz-content-sha256");
    assertThat(signed.headers().get("Authorization").get(0))
        .startsWith("AWS4-HMAC-SHA256 Credential=AKID/");
    assertThatCode(() -> signer.sign(ON_AWS, TABLE, Access.READ_WRITE,
        request("PUT", "https://lake.s3.eu-west-1.amazonaws.com/org/ns/t/data/a.parquet")))
        .doesNotThrowAnyException();
    assertThatCode(() -> signer.sign(ON_AWS, TABLE, Access.READ_WRITE,
        request("PUT", "https://s3.eu-west-1.amazonaws.com/lake/org/ns/t/data/a.parquet?uploads")))
        .doesNotThrowAnyException();
  }

  @Test
  void refusesOtherHostsBucketsAndKeys() {
    refused(ON_ENDPOINT, Access.READ_ONLY, "GET", "http://evil.example:9000/lake/org/ns/t/a");
    refused(ON_ENDPOINT, Access.READ_ONLY, "GET", "http://127.0.0.1:9001/lake/org/ns/t/a");
    refused(ON_ENDPOINT, Access.READ_ONLY, "GET", "http://127.0.0.1:9000/other/org/ns/t/a");
    refused(ON_AWS, Access.READ_ONLY, "GET", "https://other.s3.eu-west-1.amazonaws.com/org/ns/t/a");
    refused(ON_ENDPOINT, Access.READ_ONLY, "GET", "http://127.0.0.1:9000/lake/org/ns/t-2/a");
    refused(ON_ENDPOINT, Access.READ_ONLY, "GET", "http://127.0.0.1:9000/lake/org/ns/t");
    refused(ON_ENDPOINT, Access.READ_ONLY, "GET", "http://127.0.0.1:9000/lake/org/ns/t/../x/a");
    refused(ON_ENDPOINT, Access.READ_ONLY, "GET", "http://127.0.0.1:9000/lake/org/ns/t/%2E%2E/x");
    refused(ON_ENDPOINT, Access.READ_ONLY, "GET", "http://127.0.0.1:9000/lake/org/ns/t//a");
  }

  @Test
  void refusesWritesToReadersAndMethodsNobodyNeeds() {
    refused(ON_ENDPOINT, Access.READ_ONLY, "PUT", "http://127.0.0.1:9000/lake/org/ns/t/a");
    refused(ON_ENDPOINT, Access.READ_ONLY, "DELETE", "http://127.0.0.1:9000/lake/org/ns/t/a");
    refused(ON_ENDPOINT, Access.READ_WRITE, "PATCH", "http://127.0.0.1:9000/lake/org/ns/t/a");
    refused(ON_ENDPOINT, Access.READ_WRITE, "DELETE", "http://127.0.0.1:9000/lake");
    refused(ON_ENDPOINT, Access.READ_WRITE, "PUT", "http://127.0.0.1:9000/lake/org/ns/t/a?acl");
    refused(ON_ENDPOINT, Access.READ_WRITE, "PUT", "http://127.0.0.1:9000/lake/org/ns/t/a?tagging");
  }

  @Test
  void refusesListingsBeyondTheTable() {
    assertThatCode(() -> signer.sign(ON_ENDPOINT, TABLE, Access.READ_ONLY, request("GET",
        "http://127.0.0.1:9000/lake?list-type=2&prefix=org%2Fns%2Ft%2Fdata%2F")))
        .doesNotThrowAnyException();
    refused(ON_ENDPOINT, Access.READ_ONLY, "GET", "http://127.0.0.1:9000/lake?list-type=2");
    refused(ON_ENDPOINT, Access.READ_ONLY, "GET",
        "http://127.0.0.1:9000/lake?list-type=2&prefix=org%2Fns%2Ft");
    refused(ON_ENDPOINT, Access.READ_ONLY, "GET",
        "http://127.0.0.1:9000/lake?list-type=2&prefix=org%2Fns%2F");
  }

  @Test
  void refusesPermissionChangesAndCopiesFromElsewhere() {
    String inside = "http://127.0.0.1:9000/lake/org/ns/t/a";
    refusedWithHeaders(Map.of("x-amz-acl", List.of("public-read")), "PUT", inside);
    refusedWithHeaders(Map.of("x-amz-grant-read", List.of("uri=AllUsers")), "PUT", inside);
    refusedWithHeaders(Map.of("x-amz-copy-source", List.of("/lake/org/other/secret")), "PUT",
        inside);
    refusedWithHeaders(Map.of("x-amz-object-lock-mode", List.of("COMPLIANCE")), "PUT", inside);
    assertThatCode(() -> signer.sign(ON_ENDPOINT, TABLE, Access.READ_WRITE, request("PUT", inside,
        Map.of("x-amz-acl", List.of("bucket-owner-full-control")), null)))
        .doesNotThrowAnyException();
  }

  @Test
  void aHostHeaderNamingAnotherBucketIsNotWhatGetsSigned() {
    RemoteSignResponse signed = signer.sign(ON_AWS, TABLE, Access.READ_ONLY, request("GET",
        "https://lake.s3.eu-west-1.amazonaws.com/org/ns/t/a",
        Map.of("Host", List.of("other.s3.eu-west-1.amazonaws.com")), null));
    assertThat(signed.headers().entrySet())
        .filteredOn(header -> header.getKey().equalsIgnoreCase("host"))
        .allSatisfy(header -> assertThat(header.getValue())
            .containsExactly("lake.s3.eu-west-1.amazonaws.com"));
  }

  @Test
  void batchDeletesMustNameOnlyKeysInsideTheTable() {
    String delete = "http://127.0.0.1:9000/lake?delete";
    String inside = "<Delete xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Object><Key>"
        + "org/ns/t/a</Key></Object><Object><Key>org/ns/t/b</Key></Object></Delete>";
    String mixed = inside.replace("org/ns/t/b", "org/ns/elsewhere/b");
    assertThatCode(() -> signer.sign(ON_ENDPOINT, TABLE, Access.READ_WRITE,
        request("POST", delete, Map.of(), inside))).doesNotThrowAnyException();
    assertThatThrownBy(() -> signer.sign(ON_ENDPOINT, TABLE, Access.READ_WRITE,
        request("POST", delete, Map.of(), mixed))).isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> signer.sign(ON_ENDPOINT, TABLE, Access.READ_WRITE,
        request("POST", delete, Map.of(), null))).isInstanceOf(ForbiddenException.class);
    String entity = "<?xml version=\"1.0\"?><!DOCTYPE d [<!ENTITY x SYSTEM \"file:///etc/hosts\">]>"
        + "<Delete><Object><Key>org/ns/t/&x;</Key></Object></Delete>";
    assertThatThrownBy(() -> signer.sign(ON_ENDPOINT, TABLE, Access.READ_WRITE,
        request("POST", delete, Map.of(), entity))).isInstanceOf(ForbiddenException.class);
  }

  @Test
  void aBatchDeleteIsSignedByTheHashOfTheBodyShownNeverAsAnUnsignedPayload() {
    RemoteSignResponse signed = signer.sign(ON_ENDPOINT, TABLE, Access.READ_WRITE,
        request("POST", DELETE, Map.of("Content-MD5", List.of(md5(INSIDE))), INSIDE));
    assertThat(signed.headers().get("x-amz-content-sha256"))
        .containsExactly(Digests.sha256Hex(INSIDE));
    assertThat(signed.headers().get("Authorization").get(0))
        .contains("x-amz-content-sha256").contains("content-md5");
  }

  @Test
  void aDigestOfAnotherBodyIsRefused() {
    String elsewhere = INSIDE.replace("org/ns/t/b", "org/other/t/metadata/victim.json");
    for (Map<String, List<String>> digest : List.of(
        Map.of("Content-MD5", List.of(md5(elsewhere))),
        Map.of("x-amz-checksum-crc32", List.of(Digests.base64(Digests.crc32(elsewhere)))),
        Map.of("x-amz-checksum-sha256", List.of(Digests.base64(Digests.sha256(elsewhere)))),
        Map.of("x-amz-content-sha256", List.of(Digests.sha256Hex(elsewhere))),
        Map.of("x-amz-content-sha256", List.of("UNSIGNED-PAYLOAD")),
        Map.of("Content-MD5", List.of(md5(INSIDE), md5(elsewhere))))) {
      assertThatThrownBy(() -> signer.sign(ON_ENDPOINT, TABLE, Access.READ_WRITE,
          request("POST", DELETE, digest, INSIDE)))
          .as("%s", digest).isInstanceOf(ForbiddenException.class)
          .hasMessageContaining("does not describe the body");
    }
  }

  @Test
  void digestsTheCatalogComputesAreSignedAndOnesItCannotAreRefused() {
    assertThatCode(() -> signer.sign(ON_ENDPOINT, TABLE, Access.READ_WRITE, request("POST",
        DELETE, Map.of("x-amz-checksum-crc32", List.of(Digests.base64(Digests.crc32(INSIDE))),
            "x-amz-sdk-checksum-algorithm", List.of("CRC32"),
            "x-amz-content-sha256", List.of(Digests.sha256Hex(INSIDE).toUpperCase())), INSIDE)))
        .doesNotThrowAnyException();
    assertThatThrownBy(() -> signer.sign(ON_ENDPOINT, TABLE, Access.READ_WRITE, request("POST",
        DELETE, Map.of("x-amz-checksum-crc64nvme", List.of("AAAAAAAAAAA=")), INSIDE)))
        .isInstanceOf(ForbiddenException.class).hasMessageContaining("cannot verify");
  }

  @Test
  void framingsThatSendOtherBytesThanTheBodyShownAreRefused() {
    for (Map<String, List<String>> framing : List.of(
        Map.of("Content-Encoding", List.of("aws-chunked")),
        Map.of("x-amz-trailer", List.of("x-amz-checksum-crc32")),
        Map.of("x-amz-decoded-content-length", List.of("10")),
        Map.of("Content-Length", List.of("3")),
        Map.of("Content-MD5", List.of(md5(INSIDE)), "content-md5", List.of(md5(INSIDE))))) {
      assertThatThrownBy(() -> signer.sign(ON_ENDPOINT, TABLE, Access.READ_WRITE,
          request("POST", DELETE, framing, INSIDE)))
          .as("%s", framing).isInstanceOf(ForbiddenException.class);
    }
  }

  @Test
  void aBodyTheCatalogDoesNotSeeIsAnUnsignedPayloadAndItsHashIsNotTheClients() {
    String object = "http://127.0.0.1:9000/lake/org/ns/t/data/a.parquet";
    RemoteSignResponse upload = signer.sign(ON_ENDPOINT, TABLE, Access.READ_WRITE,
        request("PUT", object, Map.of("x-amz-checksum-crc32", List.of("NhCmhg=="),
            "x-amz-sdk-checksum-algorithm", List.of("CRC32")), null));
    assertThat(upload.headers().get("x-amz-content-sha256")).containsExactly("UNSIGNED-PAYLOAD");
    // The writer's own checksum of its own bytes, which S3 refuses to take unsigned.
    assertThat(upload.headers().get("Authorization").get(0)).contains("x-amz-checksum-crc32");
    for (String declared : List.of(Digests.sha256Hex("x"), "STREAMING-AWS4-HMAC-SHA256-PAYLOAD")) {
      assertThatThrownBy(() -> signer.sign(ON_ENDPOINT, TABLE, Access.READ_WRITE,
          request("PUT", object, Map.of("x-amz-content-sha256", List.of(declared)), null)))
          .isInstanceOf(ForbiddenException.class);
    }
  }

  @Test
  void batchDeleteBodiesAnotherParserCouldReadOtherwiseAreRefused() {
    for (String body : List.of(
        "<Delete><Object><Key>org/ns/t/a<Key>org/other/x</Key></Key></Object></Delete>",
        "<Delete><Object><Key>org/ns/t/a</Key><Key>org/ns/t/b</Key></Object></Delete>",
        "<Delete><Object><Key>org/ns/t/<!-- -->a</Key></Object></Delete>",
        "<Delete><Object><Key>org/ns/t/a<?x y?></Key></Object></Delete>",
        "<Delete><Object><VersionId>1</VersionId></Object></Delete>",
        "<Delete><Objects><Key>org/other/x</Key></Objects></Delete>",
        "<Delete xmlns:o=\"urn:other\"><o:Object><o:Key>org/other/x</o:Key></o:Object>"
            + "<Object><Key>org/ns/t/a</Key></Object></Delete>",
        "<Other><Object><Key>org/ns/t/a</Key></Object></Other>",
        "<Delete><Object><Key>org/ns/t/a</Key></Object></Delete><!-- trailing -->x")) {
      assertThatThrownBy(() -> signer.sign(ON_ENDPOINT, TABLE, Access.READ_WRITE,
          request("POST", DELETE, Map.of(), body)))
          .as(body).isInstanceOf(ForbiddenException.class);
    }
    assertThatCode(() -> signer.sign(ON_ENDPOINT, TABLE, Access.READ_WRITE, request("POST",
        DELETE, Map.of(), "<Delete><Quiet>true</Quiet><Object><Key><![CDATA[org/ns/t/a]]></Key>"
            + "<VersionId>3</VersionId></Object></Delete>"))).doesNotThrowAnyException();
  }

  @Test
  void bucketsWithoutKeysOrOffS3SignNothing() {
    BucketConfig anonymous = S3ProxyServer.bucketConfig("lake", "http://127.0.0.1:9000",
        BucketCredentials.none());
    assertThat(signer.canSign(anonymous)).isFalse();
    assertThat(signer.canSign(ON_ENDPOINT)).isTrue();
    refused(anonymous, Access.READ_WRITE, "GET", "http://127.0.0.1:9000/lake/org/ns/t/a");
  }

  private void refused(BucketConfig bucket, Access access, String method, String uri) {
    assertThatThrownBy(() -> signer.sign(bucket, TABLE, access, request(method, uri)))
        .as("%s %s", method, uri)
        .isInstanceOf(ForbiddenException.class);
  }

  private void refusedWithHeaders(Map<String, List<String>> headers, String method, String uri) {
    assertThatThrownBy(() -> signer.sign(ON_ENDPOINT, TABLE, Access.READ_WRITE,
        request(method, uri, headers, null)))
        .as("%s %s %s", method, uri, headers)
        .isInstanceOf(ForbiddenException.class);
  }

  private static String md5(String body) {
    return Digests.base64(Digests.md5(body));
  }

  private static RemoteSignRequest request(String method, String uri) {
    return request(method, uri, Map.of(), null);
  }

  private static RemoteSignRequest request(String method, String uri,
      Map<String, List<String>> headers, String body) {
    return ImmutableRemoteSignRequest.builder().method(method).uri(URI.create(uri))
        .region("us-east-1").headers(headers).properties(Map.of()).body(body).provider("s3")
        .build();
  }
}
