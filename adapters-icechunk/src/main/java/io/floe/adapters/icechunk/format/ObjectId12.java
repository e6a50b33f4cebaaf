package io.floe.adapters.icechunk.format;

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * A 12-byte Icechunk object id (snapshot, manifest, chunk, transaction log). Its Crockford base32
 * form is the object's file name.
 */
public final class ObjectId12 implements Comparable<ObjectId12> {
  public static final int LENGTH = 12;
  private static final SecureRandom RANDOM = new SecureRandom();

  /**
   * The well-known id of every repository's first snapshot, {@code 1CECHNKREP0F1RSTCMT0}: all
   * Icechunk implementations create the initial snapshot with it.
   */
  public static final ObjectId12 INITIAL_SNAPSHOT =
      new ObjectId12(HexFormat.of().parseHex("0b1cc8d6787580f0e33a6534"));

  private final byte[] bytes;

  public ObjectId12(byte[] bytes) {
    if (bytes.length != LENGTH) {
      throw new IllegalArgumentException("an object id has 12 bytes, got " + bytes.length);
    }
    this.bytes = bytes.clone();
  }

  public static ObjectId12 random() {
    byte[] b = new byte[LENGTH];
    RANDOM.nextBytes(b);
    return new ObjectId12(b);
  }

  public static ObjectId12 parse(String text) {
    return new ObjectId12(Crockford.decode(text, LENGTH));
  }

  public byte[] bytes() {
    return bytes.clone();
  }

  @Override
  public int compareTo(ObjectId12 o) {
    return Arrays.compareUnsigned(bytes, o.bytes);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ObjectId12 other && Arrays.equals(bytes, other.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    return Crockford.encode(bytes);
  }
}
