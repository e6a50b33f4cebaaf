package io.floe.adapters.icechunk.format;

import java.security.SecureRandom;
import java.util.Arrays;

/**
 * A fixed-length random id written in Crockford base32, as Icechunk names its objects and nodes.
 * Subclasses fix the length and keep the kinds of id apart in the type system.
 */
public abstract class CrockfordId<T extends CrockfordId<T>> implements Comparable<T> {
  private static final SecureRandom RANDOM = new SecureRandom();

  private final byte[] bytes;

  protected CrockfordId(byte[] bytes, int length, String what) {
    if (bytes.length != length) {
      throw new IllegalArgumentException(
          what + " has " + length + " bytes, got " + bytes.length);
    }
    this.bytes = bytes.clone();
  }

  protected static byte[] randomBytes(int length) {
    byte[] random = new byte[length];
    RANDOM.nextBytes(random);
    return random;
  }

  public byte[] bytes() {
    return bytes.clone();
  }

  @Override
  public int compareTo(T other) {
    return Arrays.compareUnsigned(bytes, ((CrockfordId<?>) other).bytes);
  }

  @Override
  public boolean equals(Object o) {
    return o != null && o.getClass() == getClass()
        && Arrays.equals(bytes, ((CrockfordId<?>) o).bytes);
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
