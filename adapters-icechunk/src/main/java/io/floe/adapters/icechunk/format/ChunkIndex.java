package io.floe.adapters.icechunk.format;

import java.util.Arrays;

/** A chunk's coordinates in its array's chunk grid (one unsigned 32-bit index per dimension). */
public final class ChunkIndex implements Comparable<ChunkIndex> {
  private final long[] coords;

  public ChunkIndex(long... coords) {
    for (long c : coords) {
      if (c < 0 || c > 0xffffffffL) {
        throw new IllegalArgumentException("chunk coordinate out of range: " + c);
      }
    }
    this.coords = coords.clone();
  }

  public static ChunkIndex of(long... coords) {
    return new ChunkIndex(coords);
  }

  public long[] coords() {
    return coords.clone();
  }

  public int rank() {
    return coords.length;
  }

  public long get(int dim) {
    return coords[dim];
  }

  /** Lexicographic, as manifests and transaction logs sort chunk indices. */
  @Override
  public int compareTo(ChunkIndex o) {
    return Arrays.compare(coords, o.coords);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ChunkIndex other && Arrays.equals(coords, other.coords);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(coords);
  }

  @Override
  public String toString() {
    return Arrays.toString(coords);
  }
}
