package io.floe.adapters.persistence.jooq;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Objects;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * A 256-bit AES key that seals secrets at rest. Its id, a fingerprint of the key that reveals
 * nothing of it, is stored with every value the key sealed: a server then knows which key a value
 * needs, and keys can rotate. {@code source} says where the key came from, for messages.
 */
public final class SealingKey {
  static final int BYTES = 32;
  private static final int ID_BYTES = 8;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final SecretKey key;
  private final String id;
  private final String source;

  private SealingKey(byte[] material, String source) {
    this.key = new SecretKeySpec(material, "AES");
    this.id = fingerprint(material);
    this.source = Objects.requireNonNull(source, "source");
  }

  /** A new random key. */
  public static SealingKey generate(String source) {
    byte[] material = new byte[BYTES];
    RANDOM.nextBytes(material);
    return new SealingKey(material, source);
  }

  /** A key in base64 (surrounding whitespace ignored), as key files and variables hold it. */
  public static SealingKey parse(String base64, String source) {
    byte[] material;
    try {
      material = Base64.getDecoder().decode(base64.strip());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(source + " does not hold a base64-encoded key");
    }
    if (material.length != BYTES) {
      throw new IllegalArgumentException(source + " must hold a 256-bit key (" + BYTES
          + " bytes, in base64), not " + material.length + " bytes");
    }
    try {
      return new SealingKey(material, source);
    } finally {
      Arrays.fill(material, (byte) 0);
    }
  }

  /** The key in the form {@link #parse} reads. */
  public String encoded() {
    return Base64.getEncoder().encodeToString(key.getEncoded());
  }

  public String id() {
    return id;
  }

  /**
   * Key material for another {@code purpose}, derived from this key (HMAC-SHA256 of the purpose):
   * the one secret every server is given configures the others too, and none of them reveals it.
   */
  public byte[] derive(String purpose) {
    try {
      javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key.getEncoded(), "HmacSHA256"));
      return mac.doFinal(purpose.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  public String source() {
    return source;
  }

  SecretKey secretKey() {
    return key;
  }

  @Override
  public String toString() {
    return "SealingKey[" + id + " from " + source + "]";
  }

  /** A SHA-256 of the key under a label of its own, so the id is no hash anyone else computes. */
  private static String fingerprint(byte[] material) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update("floe sealing key id\0".getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(Arrays.copyOf(sha.digest(material), ID_BYTES));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no SHA-256", e);
    }
  }
}
