package io.floe.adapters.icechunk.format;

import java.security.SecureRandom;
import java.util.Arrays;

/** The 8-byte id of a group or array; it stays the same across snapshots for the node's life. */
public final class NodeId implements Comparable<NodeId> {
  public static final int LENGTH = 8;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final byte[] bytes;

  public NodeId(byte[] bytes) {
    if (bytes.length != LENGTH) {
      throw new IllegalArgumentException("a node id has 8 bytes, got " + bytes.length);
    }
    this.bytes = bytes.clone();
  }

  public static NodeId random() {
    byte[] b = new byte[LENGTH];
    RANDOM.nextBytes(b);
    return new NodeId(b);
  }

  public static NodeId parse(String text) {
    return new NodeId(Crockford.decode(text, LENGTH));
  }

  public byte[] bytes() {
    return bytes.clone();
  }

  @Override
  public int compareTo(NodeId o) {
    return Arrays.compareUnsigned(bytes, o.bytes);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof NodeId other && Arrays.equals(bytes, other.bytes);
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
