package io.floe.adapters.storage.s3;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamReader;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;

/**
 * What an S3 store does with a request signed by the catalog and sent by whoever holds the
 * signature: which requests it accepts (the signature over the headers named signed, the payload
 * hash and digests checked against the bytes that arrive, no unsigned {@code x-amz-*} header),
 * and which keys an accepted one touches. Written from S3's documented behaviour, apart from the
 * signer under test; batch delete bodies are read by a different XML parser (StAX) than the
 * signer's, so a difference between parsers would show.
 */
final class S3StoreModel {
  private static final Pattern SIGNED_HEADERS = Pattern.compile("SignedHeaders=([^,]+)");
  private static final Pattern SIGNATURE = Pattern.compile("Signature=([0-9a-f]+)");
  private static final DateTimeFormatter AMZ_DATE =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'");

  private final String bucket;
  private final String accessKey;
  private final String secretKey;
  private final String region;

  S3StoreModel(String bucket, String accessKey, String secretKey, String region) {
    this.bucket = bucket;
    this.accessKey = accessKey;
    this.secretKey = secretKey;
    this.region = region;
  }

  /** A request as it arrives: method, URI, headers (any case) and the body's bytes. */
  record Arrival(String method, URI uri, Map<String, List<String>> headers, byte[] body) {}

  /** Whether the store would carry out {@code request}. */
  boolean accepts(Arrival request) {
    Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    for (Map.Entry<String, List<String>> header : request.headers().entrySet()) {
      if (headers.put(header.getKey(), String.join(",", header.getValue())) != null) {
        return false;
      }
    }
    String authorization = headers.get("authorization");
    if (authorization == null) {
      return false;
    }
    Matcher signedNames = SIGNED_HEADERS.matcher(authorization);
    Matcher signature = SIGNATURE.matcher(authorization);
    if (!signedNames.find() || !signature.find()) {
      return false;
    }
    List<String> signed = Arrays.asList(signedNames.group(1).split(";"));
    for (String name : headers.keySet()) {
      String lower = name.toLowerCase(Locale.ROOT);
      if (lower.startsWith("x-amz-") && !lower.equals("x-amz-content-sha256")
          && !signed.contains(lower)) {
        return false; // "There were headers present in the request which were not signed"
      }
    }
    return digestsMatch(headers, request.body())
        && signatureMatches(request, headers, signed, signature.group(1));
  }

  /** The keys an accepted request reads or changes (a listing's prefix counts as a key). */
  List<String> keysTouched(Arrival request) {
    String path = request.uri().getPath();
    Map<String, String> query = query(request.uri());
    String rest = path.startsWith("/") ? path.substring(1) : path;
    int slash = rest.indexOf('/');
    if (slash >= 0 && slash < rest.length() - 1) {
      return List.of(rest.substring(slash + 1));
    }
    if (query.containsKey("delete")) {
      return keysIn(request.body());
    }
    if (request.method().equals("GET")) {
      return List.of(query.getOrDefault("prefix", ""));
    }
    return List.of();
  }

  /** The bucket an accepted request addresses (path style). */
  String bucketOf(Arrival request) {
    String rest = request.uri().getPath().substring(1);
    int slash = rest.indexOf('/');
    return slash < 0 ? rest : rest.substring(0, slash);
  }

  private boolean digestsMatch(Map<String, String> headers, byte[] body) {
    String declared = headers.get("x-amz-content-sha256");
    if (declared == null) {
      return false;
    }
    if (!declared.equals("UNSIGNED-PAYLOAD")
        && !declared.equalsIgnoreCase(Digests.sha256Hex(body))) {
      return false; // XAmzContentSHA256Mismatch, or a framing this model does not take
    }
    String md5 = headers.get("content-md5");
    if (md5 != null && !md5.equals(Digests.base64(Digests.md5(body)))) {
      return false; // BadDigest
    }
    String crc32 = headers.get("x-amz-checksum-crc32");
    if (crc32 != null && !crc32.equals(Digests.base64(Digests.crc32(body)))) {
      return false;
    }
    String sha256 = headers.get("x-amz-checksum-sha256");
    return sha256 == null || sha256.equals(Digests.base64(Digests.sha256(body)));
  }

  /** SigV4 recomputed over the signed headers as they arrived, dated as the request says. */
  private boolean signatureMatches(Arrival request, Map<String, String> headers,
      List<String> signedNames, String signature) {
    String date = headers.get("x-amz-date");
    if (date == null || !signedNames.contains("host") || !signedNames.contains("x-amz-date")) {
      return false;
    }
    SdkHttpRequest.Builder canonical = SdkHttpRequest.builder()
        .method(SdkHttpMethod.fromValue(request.method())).uri(request.uri());
    for (String name : signedNames) {
      if (name.equals("host") || name.equals("x-amz-date") || name.equals("x-amz-content-sha256")
          || name.equals("authorization")) {
        continue;
      }
      String value = headers.get(name);
      if (value == null) {
        return false;
      }
      canonical.putHeader(name, value);
    }
    boolean hashed = !headers.get("x-amz-content-sha256").equals("UNSIGNED-PAYLOAD");
    Instant at = LocalDateTime.parse(date, AMZ_DATE).toInstant(ZoneOffset.UTC);
    String recomputed = AwsV4HttpSigner.create().sign(r -> {
      r.identity(AwsBasicCredentials.create(accessKey, secretKey))
          .request(canonical.build())
          .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "s3")
          .putProperty(AwsV4HttpSigner.REGION_NAME, region)
          .putProperty(AwsV4HttpSigner.DOUBLE_URL_ENCODE, false)
          .putProperty(AwsV4HttpSigner.NORMALIZE_PATH, false)
          .putProperty(AwsV4HttpSigner.SIGNING_CLOCK, Clock.fixed(at, ZoneOffset.UTC))
          .putProperty(AwsV4HttpSigner.PAYLOAD_SIGNING_ENABLED, hashed);
      if (hashed) {
        r.payload(ContentStreamProvider.fromByteArray(request.body()));
      }
    }).request().firstMatchingHeader("Authorization").orElse("");
    Matcher again = SIGNATURE.matcher(recomputed);
    return again.find() && again.group(1).equals(signature)
        && recomputed.contains("SignedHeaders=" + String.join(";", signedNames) + ",");
  }

  private static List<String> keysIn(byte[] body) {
    List<String> keys = new ArrayList<>();
    try {
      XMLInputFactory factory = XMLInputFactory.newFactory();
      factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
      XMLStreamReader reader = factory.createXMLStreamReader(new ByteArrayInputStream(body));
      StringBuilder text = null;
      while (reader.hasNext()) {
        int event = reader.next();
        if (event == XMLStreamConstants.START_ELEMENT && reader.getLocalName().equals("Key")) {
          text = new StringBuilder();
        } else if (text != null && (event == XMLStreamConstants.CHARACTERS
            || event == XMLStreamConstants.CDATA)) {
          text.append(reader.getText());
        } else if (event == XMLStreamConstants.END_ELEMENT
            && reader.getLocalName().equals("Key") && text != null) {
          keys.add(text.toString());
          text = null;
        }
      }
    } catch (Exception unreadable) {
      return List.of(); // the store refuses a body it cannot read: nothing is deleted
    }
    return keys;
  }

  private static Map<String, String> query(URI uri) {
    Map<String, String> query = new TreeMap<>();
    Optional.ofNullable(uri.getRawQuery()).filter(raw -> !raw.isEmpty()).ifPresent(raw -> {
      for (String pair : raw.split("&")) {
        int eq = pair.indexOf('=');
        query.put(URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8),
            eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
      }
    });
    return query;
  }

  String bucket() {
    return bucket;
  }
}
