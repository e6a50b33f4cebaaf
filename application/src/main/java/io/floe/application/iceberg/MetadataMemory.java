package io.floe.application.iceberg;

/**
 * What the server keeps of metadata files in memory, as shares of its heap, so that what it keeps
 * leaves room for what requests need meanwhile (parsing a file of megabytes builds a tree several
 * times its size, and sixteen such loads may arrive at once), whatever heap it is given.
 *
 * <p>Budgets are counted in the bytes of the files. Parsed, a file takes about
 * {@value #PARSED_PER_FILE_BYTE} times its size (a 2.3 MB file of 5,000 snapshots becomes 5.2 MB
 * of iceberg-core's objects); serialized for loads, exactly its size. Together what is kept stays
 * under a third of the heap: with the 256 MiB of {@code floe serve}, 8 MiB of parsed tables and
 * 51 MiB of load answers, enough for sixteen tables of 5,000 snapshots to be loaded from memory.
 *
 * @param tableFileBytes parsed table metadata, in the bytes of their files
 * @param viewFileBytes parsed view metadata, in the bytes of their files
 * @param serializedBytes tables' metadata as loads write it out
 */
public record MetadataMemory(long tableFileBytes, long viewFileBytes, long serializedBytes) {
  /** Heap a parsed metadata file takes per byte of the file, rounded up from 2.3 measured. */
  static final double PARSED_PER_FILE_BYTE = 2.5;
  private static final long MIB = 1024 * 1024;

  /** The budgets of a JVM whose heap may grow to {@code maxHeapBytes}. */
  public static MetadataMemory forHeap(long maxHeapBytes) {
    return new MetadataMemory(Math.max(MIB, maxHeapBytes / 32), Math.max(MIB, maxHeapBytes / 128),
        Math.max(4 * MIB, maxHeapBytes / 5));
  }

  /** The budgets of this JVM. */
  public static MetadataMemory ofThisJvm() {
    return forHeap(Runtime.getRuntime().maxMemory());
  }

  /** The heap that everything kept may take at most. */
  public long heapBytes() {
    return (long) ((tableFileBytes + viewFileBytes) * PARSED_PER_FILE_BYTE) + serializedBytes;
  }
}
