package io.floe.adapters.rest.s3;

/** One HTTP byte range ({@code a-b}, {@code a-}, {@code -n}) against an object's size. */
final class ByteRanges {
  private ByteRanges() {}

  /**
   * The offset and length the range selects; a malformed range is a bad request, one that
   * selects nothing of the object is not satisfiable.
   */
  static long[] resolve(String range, long size) {
    String[] ends = range.split("-", 2);
    if (ends.length != 2) {
      throw new IllegalArgumentException("malformed byte range '" + range + "'");
    }
    try {
      if (ends[0].isEmpty()) {
        long tail = Long.parseLong(ends[1]);
        if (tail <= 0 || size == 0) {
          throw new RangeNotSatisfiableException(range, size);
        }
        long offset = Math.max(0, size - tail);
        return new long[] {offset, size - offset};
      }
      long first = Long.parseLong(ends[0]);
      long last = ends[1].isEmpty() ? size - 1 : Long.parseLong(ends[1]);
      if (first < 0 || last < first) {
        throw new IllegalArgumentException("malformed byte range '" + range + "'");
      }
      if (first >= size) {
        throw new RangeNotSatisfiableException(range, size);
      }
      return new long[] {first, Math.min(last, size - 1) - first + 1};
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("malformed byte range '" + range + "'");
    }
  }

  /** A range that starts at or past the object's end. */
  static final class RangeNotSatisfiableException extends RuntimeException {
    RangeNotSatisfiableException(String range, long size) {
      super("The range " + range + " selects nothing of an object of " + size + " bytes");
    }
  }
}
