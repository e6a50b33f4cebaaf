package io.floe.application.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What the server keeps of metadata leaves most of any heap to the requests. */
class MetadataMemoryTest {
  private static final long MIB = 1024 * 1024;

  @Test
  void whatIsKeptStaysUnderAThirdOfAnyHeap() {
    for (long heap = 64 * MIB; heap <= 64L * 1024 * MIB; heap *= 2) {
      MetadataMemory memory = MetadataMemory.forHeap(heap);
      assertThat(memory.heapBytes()).as("heap of %d MiB", heap / MIB).isLessThan(heap / 3);
    }
  }

  @Test
  void theServeHeapAnswersLoadsOfSixteenTablesOfThousandsOfSnapshotsFromMemory() {
    long file = 2_400_000; // 5,000 snapshots, as the benchmark's big tables
    long refsOnly = 4_000; // the same table as a load with snapshots=refs returns it
    MetadataMemory memory = MetadataMemory.forHeap(256 * MIB);
    assertThat(memory.serializedBytes()).isGreaterThan(16 * (file + refsOnly));
    assertThat(memory.tableFileBytes()).as("a commit to one of them finds it parsed")
        .isGreaterThan(file);
  }
}
