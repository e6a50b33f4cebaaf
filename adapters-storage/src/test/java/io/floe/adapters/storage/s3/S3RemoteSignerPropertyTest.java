package io.floe.adapters.storage.s3;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.floe.application.port.out.CredentialVendor.Access;
import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.StoragePath;
import java.net.URI;
import java.net.URLEncoder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.statistics.StatisticsReport;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.rest.requests.ImmutableRemoteSignRequest;
import org.apache.iceberg.rest.requests.RemoteSignRequest;
import org.apache.iceberg.rest.responses.RemoteSignResponse;

/**
 * Whatever an engine asks the catalog to sign (any method, host, bucket, key spelling, query,
 * digest header and batch delete body, from a writer of one table), and whatever it then sends
 * the store with the signature (the body it showed, or another, with digests of its own), no
 * request the store accepts touches a key outside the table, and a signature made for a body
 * the catalog checked serves no other body. The store is {@link S3StoreModel}: S3's checks,
 * written apart from the signer.
 */
class S3RemoteSignerPropertyTest {
  private static final String ENDPOINT = "http://127.0.0.1:9000";
  private static final StoragePath TABLE = new StoragePath("org/ns/t");
  private static final BucketConfig BUCKET = S3ProxyServer.bucketConfig("lake", ENDPOINT,
      BucketCredentials.staticKeys("AKID", "SECRET"));
  private static final S3StoreModel STORE = new S3StoreModel("lake", "AKID", "SECRET",
      "us-east-1");

  private static final List<String> KEYS = List.of(
      "org/ns/t/data/a.parquet", "org/ns/t/metadata/v1.metadata.json", "org/ns/t/",
      "org/ns/t", "org/ns/t-2/data/a", "org/other/t/metadata/victim.json", "org-2/ns/t/a",
      "org/ns/t/../t-2/a", "org/ns/t/%2E%2E/t-2/a", "org/ns/t//a", "org/ns/t/./a",
      "org/ns/t/a%2F..%2F..%2Fx", "org/ns/t/a?x", "");
  private static final List<String> INSIDE_KEYS = List.of("org/ns/t/data/a.parquet",
      "org/ns/t/metadata/v1.metadata.json", "org/ns/t/data/part-00001-3c1d.parquet");
  private static final List<String> BUCKET_QUERIES = List.of("?delete",
      "?delete&x-id=DeleteObjects", "?delete&acl", "?uploads", "?acl", "", "?list-type=2",
      "?versions", "?policy");
  private static final List<String> OBJECT_QUERIES = List.of("", "?uploads",
      "?uploadId=1&partNumber=2", "?uploadId=1", "?versionId=3", "?acl", "?tagging",
      "?restore", "?x-id=PutObject", "?delete");

  private final S3RemoteSigner signer = new S3RemoteSigner();

  /** What an engine asks to have signed. */
  record Ask(String method, String uri, Map<String, List<String>> headers, String body) {
    RemoteSignRequest request() {
      return ImmutableRemoteSignRequest.builder().method(method).uri(URI.create(uri))
          .region("us-east-1").headers(headers).properties(Map.of()).body(body).provider("s3")
          .build();
    }
  }

  /** What is then sent with the signature: a body, and how the sender treats the headers. */
  record Send(Optional<String> otherBody, boolean addsOwnMd5, Optional<String> ownContentSha) {}

  @Property(tries = 3000)
  void noSignedRequestTouchesAKeyOutsideTheTableOrServesAnotherBody(
      @ForAll("asks") Ask ask, @ForAll("sends") Send send) {
    Optional<RemoteSignResponse> signed = sign(ask);
    Statistics.label("signed").collect(signed.isPresent() ? ask.method() : "refused");
    if (signed.isEmpty()) {
      return;
    }
    byte[] shown = ask.body() == null ? new byte[0] : ask.body().getBytes(UTF_8);
    byte[] sent = send.otherBody().map(body -> body.getBytes(UTF_8)).orElse(shown);
    S3StoreModel.Arrival arrival = arrival(ask.method(), signed.get(), sent, send);
    boolean accepted = STORE.accepts(arrival);
    Statistics.label("store").collect(accepted ? "accepted" : "rejected");
    if (!accepted) {
      return;
    }
    assertThat(STORE.bucketOf(arrival)).isEqualTo("lake");
    for (String key : STORE.keysTouched(arrival)) {
      assertThat(beneathTable(key)).as("key '%s' of %s", key, ask).isTrue();
    }
    if (ask.body() != null) {
      assertThat(sent).as("a body other than the one checked").isEqualTo(shown);
    }
  }

  /**
   * Not vacuous: what the catalog signs for a client whose digests describe what it sends is
   * carried out by the store when sent as shown.
   */
  @Property(tries = 1000)
  @StatisticsReport(StatisticsReport.StatisticsReportMode.OFF)
  void whatIsSignedIsServedWhenSentAsShown(@ForAll("honestAsks") Ask ask) {
    Optional<RemoteSignResponse> signed = sign(ask);
    Statistics.collect(signed.isPresent() ? "signed " + ask.method() : "refused");
    signed.ifPresent(response -> {
      byte[] shown = ask.body() == null ? new byte[0] : ask.body().getBytes(UTF_8);
      assertThat(STORE.accepts(arrival(ask.method(), response, shown, new Send(Optional.empty(), false,
          Optional.empty())))).as("%s", ask).isTrue();
    });
    Statistics.coverage(coverage -> {
      coverage.check("signed POST").count(count -> count > 0);
      coverage.check("signed PUT").count(count -> count > 0);
      coverage.check("signed GET").count(count -> count > 0);
    });
  }

  private Optional<RemoteSignResponse> sign(Ask ask) {
    try {
      return Optional.of(signer.sign(BUCKET, TABLE, Access.READ_WRITE, ask.request()));
    } catch (ForbiddenException refused) {
      return Optional.empty();
    }
  }

  private static S3StoreModel.Arrival arrival(String method, RemoteSignResponse signed,
      byte[] body, Send send) {
    Map<String, List<String>> headers = new LinkedHashMap<>(signed.headers());
    String signedNames = headers.get("Authorization").get(0);
    if (send.addsOwnMd5() && !signedNames.contains("content-md5")) {
      headers.keySet().removeIf(name -> name.equalsIgnoreCase("content-md5"));
      headers.put("Content-MD5", List.of(Digests.base64(Digests.md5(body))));
    }
    send.ownContentSha().ifPresent(value -> {
      headers.keySet().removeIf(name -> name.equalsIgnoreCase("x-amz-content-sha256"));
      headers.put("x-amz-content-sha256",
          List.of(value.equals("hash") ? Digests.sha256Hex(body) : value));
    });
    return new S3StoreModel.Arrival(method, signed.uri(), headers, body);
  }

  private static boolean beneathTable(String key) {
    if (!key.startsWith(TABLE.value() + "/")) {
      return false;
    }
    String rest = key.substring(TABLE.value().length() + 1);
    String withoutSlash = rest.endsWith("/") ? rest.substring(0, rest.length() - 1) : rest;
    if (withoutSlash.isEmpty()) {
      return rest.isEmpty();
    }
    for (String segment : withoutSlash.split("/", -1)) {
      if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
        return false;
      }
    }
    return true;
  }

  @Provide
  Arbitrary<Ask> asks() {
    return asks(ALL_HEADERS);
  }

  @Provide
  Arbitrary<Ask> honestAsks() {
    return asks(HONEST_HEADERS);
  }

  private static final List<String> HONEST_HEADERS =
      List.of("md5", "crc32", "sha-header", "unsigned", "length");
  private static final List<String> ALL_HEADERS = List.of("md5", "md5-other", "crc32",
      "crc32-other", "sha-header", "sha-other", "unsigned", "chunked", "copy", "acl", "crc64",
      "case-twin", "length");

  /**
   * Mostly what engines send (reads, uploads, listings and batch deletes of the table's keys),
   * each often with a hostile twist; the rest anything at all.
   */
  private static Arbitrary<Ask> asks(List<String> headerNames) {
    Arbitrary<String> inside = Arbitraries.of(INSIDE_KEYS);
    Arbitrary<String> anyKey = Arbitraries.frequencyOf(
        Tuple.of(3, inside), Tuple.of(1, Arbitraries.of(KEYS)));
    Arbitrary<Ask> reads = Combinators.combine(Arbitraries.of("GET", "HEAD"), anyKey,
            Arbitraries.of(OBJECT_QUERIES), headerChoices(headerNames))
        .as((method, key, query, headers) ->
            new Ask(method, ENDPOINT + "/lake/" + key + query, headers.apply(null), null));
    Arbitrary<Ask> writes = Combinators.combine(Arbitraries.of("PUT", "POST", "DELETE"), anyKey,
            Arbitraries.of(OBJECT_QUERIES), headerChoices(headerNames))
        .as((method, key, query, headers) ->
            new Ask(method, ENDPOINT + "/lake/" + key + query, headers.apply(null), null));
    Arbitrary<Ask> listings = Combinators.combine(anyKey, headerChoices(headerNames))
        .as((key, headers) -> new Ask("GET", ENDPOINT + "/lake?list-type=2&prefix="
            + URLEncoder.encode(key, UTF_8), headers.apply(null), null));
    Arbitrary<Ask> deletes = Combinators.combine(
            Arbitraries.of("?delete", "?delete&x-id=DeleteObjects"), deleteBodies(),
            headerChoices(headerNames))
        .as((query, body, headers) ->
            new Ask("POST", ENDPOINT + "/lake" + query, headers.apply(body), body));
    Arbitrary<Ask> anything = Combinators.combine(
            Arbitraries.of("GET", "HEAD", "PUT", "POST", "DELETE", "PATCH"), anyUri(),
            Arbitraries.oneOf(Arbitraries.just(null), deleteBodies()),
            headerChoices(headerNames))
        .as((method, uri, body, headers) -> new Ask(method, uri, headers.apply(body), body));
    return Arbitraries.frequencyOf(Tuple.of(2, reads),
        Tuple.of(2, writes), Tuple.of(1, listings),
        Tuple.of(4, deletes), Tuple.of(2, anything));
  }

  private static Arbitrary<String> anyUri() {
    return Arbitraries.oneOf(
        Combinators.combine(Arbitraries.of(KEYS), Arbitraries.of(OBJECT_QUERIES))
            .as((key, query) -> ENDPOINT + "/lake/" + key + query),
        Arbitraries.of(BUCKET_QUERIES).map(query -> ENDPOINT + "/lake" + query),
        Arbitraries.of(KEYS).map(key -> "http://127.0.0.1:9001/lake/" + key),
        Arbitraries.of(KEYS).map(key -> "http://lake.127.0.0.1:9000/" + key),
        Arbitraries.of(KEYS).map(key -> ENDPOINT + "/other/" + key));
  }

  /** Digest and framing headers, computed over the body shown, over another, or made up. */
  private static Arbitrary<java.util.function.Function<String, Map<String, List<String>>>>
      headerChoices(List<String> choices) {
    String other = delete(List.of("org/other/t/metadata/victim.json"));
    Arbitrary<List<String>> names = Arbitraries.of(choices).list().ofMaxSize(3).uniqueElements();
    return names.map(chosen -> body -> {
      String shown = body == null ? "" : body;
      Map<String, List<String>> headers = new LinkedHashMap<>();
      for (String choice : chosen) {
        switch (choice) {
          case "md5" -> headers.put("Content-MD5", List.of(Digests.base64(Digests.md5(shown))));
          case "md5-other" -> headers.put("Content-MD5",
              List.of(Digests.base64(Digests.md5(other))));
          case "crc32" -> headers.put("x-amz-checksum-crc32",
              List.of(Digests.base64(Digests.crc32(shown))));
          case "crc32-other" -> headers.put("x-amz-checksum-crc32",
              List.of(Digests.base64(Digests.crc32(other))));
          case "sha-header" -> headers.put("x-amz-content-sha256",
              List.of(Digests.sha256Hex(shown)));
          case "sha-other" -> headers.put("x-amz-content-sha256",
              List.of(Digests.sha256Hex(other)));
          case "unsigned" -> headers.put("x-amz-content-sha256", List.of("UNSIGNED-PAYLOAD"));
          case "chunked" -> headers.put("Content-Encoding", List.of("aws-chunked"));
          case "copy" -> headers.put("x-amz-copy-source", List.of("/lake/org/other/t/x"));
          case "acl" -> headers.put("x-amz-acl", List.of("public-read"));
          case "crc64" -> headers.put("x-amz-checksum-crc64nvme", List.of("AAAAAAAAAAA="));
          case "case-twin" -> {
            headers.put("content-md5", List.of(Digests.base64(Digests.md5(shown))));
            headers.put("Content-MD5", List.of(Digests.base64(Digests.md5(other))));
          }
          case "length" -> headers.put("Content-Length",
              List.of(Integer.toString(shown.getBytes(UTF_8).length)));
          default -> throw new AssertionError(choice);
        }
      }
      return headers;
    });
  }

  @Provide
  Arbitrary<Send> sends() {
    Arbitrary<Optional<String>> otherBody = Arbitraries.oneOf(
        Arbitraries.just(Optional.empty()),
        deleteBodies().map(Optional::of),
        Arbitraries.of("", "x", " ").map(Optional::of));
    Arbitrary<Optional<String>> contentSha = Arbitraries.of(Optional.empty(),
        Optional.of("hash"), Optional.of("UNSIGNED-PAYLOAD"));
    return Combinators.combine(otherBody, Arbitraries.of(true, false), contentSha)
        .as(Send::new);
  }

  /** Batch delete bodies: keys inside and outside, and shapes parsers may read differently. */
  private static Arbitrary<String> deleteBodies() {
    Arbitrary<String> key = Arbitraries.frequencyOf(
        Tuple.of(6, Arbitraries.of(INSIDE_KEYS)),
        Tuple.of(1, Arbitraries.of(KEYS.stream()
            .filter(k -> !k.contains("?") && !k.contains("%")).toList())));
    Arbitrary<String> plain = key.list().ofMinSize(1).ofMaxSize(3)
        .map(S3RemoteSignerPropertyTest::delete);
    Arbitrary<String> crafted = Arbitraries.of(
        "<Delete><Object><Key>org/ns/t/a<Key>org/other/x</Key></Key></Object></Delete>",
        "<Delete><Object><Key>org/ns/t/a</Key><Key>org/other/x</Key></Object></Delete>",
        "<Delete><Object><Key>org/ns/t/<!--x-->a</Key></Object>"
            + "<Other><Key>org/other/x</Key></Other></Delete>",
        "<Delete><Object><Key><![CDATA[org/ns/t/b]]></Key></Object></Delete>",
        "<Delete xmlns:o=\"urn:o\"><o:Object><o:Key>org/other/x</o:Key></o:Object></Delete>",
        "<Delete><Object><Key>org/ns/t/a</Key></Object></Delete><Delete/>",
        "<?xml version=\"1.0\"?><!DOCTYPE d [<!ENTITY x \"org/other/x\">]>"
            + "<Delete><Object><Key>&x;</Key></Object></Delete>");
    return Arbitraries.frequencyOf(Tuple.of(4, plain),
        Tuple.of(1, crafted));
  }

  private static String delete(List<String> keys) {
    StringBuilder body = new StringBuilder(
        "<Delete xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">");
    for (String key : keys) {
      body.append("<Object><Key>").append(key).append("</Key></Object>");
    }
    return body.append("</Delete>").toString();
  }
}
