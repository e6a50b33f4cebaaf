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
