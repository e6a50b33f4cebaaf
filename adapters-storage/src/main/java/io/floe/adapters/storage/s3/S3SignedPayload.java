package io.floe.adapters.storage.s3;

import static io.floe.adapters.storage.s3.S3RequestTarget.refused;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.checksums.DefaultChecksumAlgorithm;
import software.amazon.awssdk.checksums.SdkChecksum;
import software.amazon.awssdk.checksums.spi.ChecksumAlgorithm;

/**
 * What a signature says about a request's body, decided in this one place.
 *
 * <p>A body the catalog was shown (a batch delete's list of keys, which decides what the request
 * touches) is signed by its SHA-256 ({@code x-amz-content-sha256}): the store refuses the
 * signature for any other body. A digest header the client sends with it ({@code Content-MD5},
 * {@code x-amz-checksum-*}, {@code x-amz-content-sha256}) is signed only when it is exactly what
 * the catalog computes from that body; one it cannot compute, or that names other bytes, is
 * refused. Streaming framings ({@code aws-chunked}, trailers) would let the bytes on the wire
 * differ from the body shown, so they are refused too.
 *
 * <p>A body the catalog is not shown (an object upload, a part, the completion of an upload) is
 * sent as {@code UNSIGNED-PAYLOAD}: the object's key and sub-resource are in the signed URI and
 * its content is the writer's own. A checksum header the client computed over those bytes is
 * signed as sent, since S3 refuses unsigned {@code x-amz-*} headers and the checksum only lets the
 * store verify the writer's bytes; a client-chosen {@code x-amz-content-sha256} is not signed.
 */
final class S3SignedPayload {
  static final String CONTENT_SHA256 = "x-amz-content-sha256";
  static final String UNSIGNED_PAYLOAD = "UNSIGNED-PAYLOAD";
  private static final String CONTENT_MD5 = "content-md5";
  private static final String CHECKSUM_PREFIX = "x-amz-checksum-";
  /** Names the algorithm, not a value: it describes the body, so it must agree with it. */
  private static final String SDK_CHECKSUM_ALGORITHM = "x-amz-sdk-checksum-algorithm";
  private static final List<String> STREAMING_HEADERS =
      List.of("x-amz-trailer", "x-amz-decoded-content-length");

  private final Optional<byte[]> body;

  private S3SignedPayload(Optional<byte[]> body) {
    this.body = body;
  }

  /**
   * The payload of {@code request}, whose headers (names in lower case, one entry per name) are
   * checked against it; {@code x-amz-content-sha256} is removed from them, as the signer sets it.
   *
   * @throws org.apache.iceberg.exceptions.ForbiddenException for a digest or framing that does
   *     not describe the body shown, or that the catalog cannot verify
   */
  static S3SignedPayload of(String body, Map<String, List<String>> headers) {
    if (body == null) {
      requireUnsignedPayloadDeclared(headers);
      headers.remove(CONTENT_SHA256);
      return new S3SignedPayload(Optional.empty());
    }
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    for (String streaming : STREAMING_HEADERS) {
      if (headers.containsKey(streaming)) {
        throw refused("a body the catalog checked is signed whole; '" + streaming
            + "' would send other bytes");
      }
    }
    headers.getOrDefault("content-encoding", List.of()).forEach(encoding -> {
      if (encoding.toLowerCase(Locale.ROOT).contains("aws-chunked")) {
        throw refused("a body the catalog checked is signed whole, not in aws-chunked framing");
      }
    });
    headers.getOrDefault("content-length", List.of()).forEach(length -> {
      if (!length.strip().equals(Integer.toString(bytes.length))) {
        throw refused("Content-Length " + length + " is not the length of the body checked");
      }
    });
    for (Map.Entry<String, List<String>> header : headers.entrySet()) {
      requireDescribes(header.getKey(), header.getValue(), bytes);
    }
    headers.remove(CONTENT_SHA256);
    return new S3SignedPayload(Optional.of(bytes));
  }

  /** The bytes the signature is bound to, or empty for an unsigned payload. */
  Optional<byte[]> body() {
    return body;
  }

  private static void requireUnsignedPayloadDeclared(Map<String, List<String>> headers) {
    List<String> declared = headers.get(CONTENT_SHA256);
    if (declared != null && !declared.equals(List.of(UNSIGNED_PAYLOAD))) {
      throw refused("the catalog signs a body it is not shown as " + UNSIGNED_PAYLOAD
          + ", not as '" + String.join(",", declared) + "'");
    }
  }

  /** A digest header must be one value, and exactly the digest of {@code bytes}. */
  private static void requireDescribes(String name, List<String> values, byte[] bytes) {
    Optional<String> expected = expectedValue(name, bytes);
    if (expected.isEmpty()) {
      return;
    }
    if (values.size() != 1 || !sameDigest(name, values.get(0).strip(), expected.get())) {
      throw refused("'" + name + "' does not describe the body the catalog checked");
    }
  }

  /** What a digest header must say about {@code bytes}; empty for a header that is no digest. */
  private static Optional<String> expectedValue(String name, byte[] bytes) {
    if (name.equals(CONTENT_SHA256)) {
      return Optional.of(HexFormat.of().formatHex(digest(DefaultChecksumAlgorithm.SHA256, bytes)));
    }
    if (name.equals(CONTENT_MD5)) {
      return Optional.of(base64(digest(DefaultChecksumAlgorithm.MD5, bytes)));
    }
    if (name.equals(SDK_CHECKSUM_ALGORITHM)) {
      return Optional.empty(); // checked through the x-amz-checksum-<algorithm> it announces
    }
    if (name.startsWith(CHECKSUM_PREFIX)) {
      String algorithm = name.substring(CHECKSUM_PREFIX.length());
      return Optional.of(base64(digest(algorithm(algorithm), bytes)));
    }
    return Optional.empty();
  }

  private static boolean sameDigest(String name, String given, String expected) {
    // A hex digest may come in either case; base64 is case-sensitive.
    return name.equals(CONTENT_SHA256) ? given.equalsIgnoreCase(expected) : given.equals(expected);
  }

  /** The checksum algorithms the catalog can compute here; any other one is refused. */
  private static ChecksumAlgorithm algorithm(String name) {
    return switch (name) {
      case "crc32" -> DefaultChecksumAlgorithm.CRC32;
      case "crc32c" -> DefaultChecksumAlgorithm.CRC32C;
      case "sha1" -> DefaultChecksumAlgorithm.SHA1;
      case "sha256" -> DefaultChecksumAlgorithm.SHA256;
      default -> throw refused("the catalog cannot verify an x-amz-checksum-" + name
          + " header against the body it checked");
    };
  }

  private static byte[] digest(ChecksumAlgorithm algorithm, byte[] bytes) {
    SdkChecksum checksum = SdkChecksum.forAlgorithm(algorithm);
    checksum.update(bytes, 0, bytes.length);
    return checksum.getChecksumBytes();
  }

  private static String base64(byte[] digest) {
    return Base64.getEncoder().encodeToString(digest);
  }
}
