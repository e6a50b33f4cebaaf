package io.floe.adapters.storage.s3;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.zip.CRC32;

/** The digests S3 checks, computed with the JDK alone (not the code under test). */
final class Digests {
  private Digests() {}

  static byte[] md5(String body) {
    return digest("MD5", bytes(body));
  }

  static byte[] sha256(String body) {
    return sha256(bytes(body));
  }

  static byte[] sha256(byte[] body) {
    return digest("SHA-256", body);
  }

  static String sha256Hex(String body) {
    return HexFormat.of().formatHex(sha256(body));
  }

  static String sha256Hex(byte[] body) {
    return HexFormat.of().formatHex(sha256(body));
  }

  static byte[] crc32(String body) {
    return crc32(bytes(body));
  }

  static byte[] crc32(byte[] body) {
    CRC32 crc = new CRC32();
    crc.update(body);
    return ByteBuffer.allocate(4).putInt((int) crc.getValue()).array();
  }

  static String base64(byte[] digest) {
    return Base64.getEncoder().encodeToString(digest);
  }

  static byte[] md5(byte[] body) {
    return digest("MD5", body);
  }

  private static byte[] bytes(String body) {
    return body.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] digest(String algorithm, byte[] body) {
    try {
      return MessageDigest.getInstance(algorithm).digest(body);
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }
}
