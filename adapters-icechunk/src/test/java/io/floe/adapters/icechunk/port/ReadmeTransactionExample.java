package io.floe.adapters.icechunk.port;

import dev.zarr.zarrjava.v3.Array;
import io.floe.adapters.icechunk.engine.IcechunkRepository;
import io.floe.adapters.icechunk.engine.ObjectStore;
import io.floe.adapters.icechunk.format.ObjectId12;
import io.floe.application.port.out.BucketStorage;
import io.floe.domain.StoragePath;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.io.FileIO;

/**
 * The documented example of one commit for arrays and tables (docs/repos.md, "Arrays and tables
 * in one commit"): the page's block is the body of {@link #ingest}, between the markers, character for
 * character (RepoTransactionTest checks it and runs it).
 */
final class ReadmeTransactionExample {
  private ReadmeTransactionExample() {}

  static ObjectId12 ingest(BucketStorage bucket, FileIO io, DataFile granule) throws Exception {
    ObjectStore storage = BucketObjectStore.of(bucket);
    // README begin
    IcechunkRepository repo = IcechunkRepository.open(storage, new StoragePath("repos/weather"));
    RepoTransaction tx = RepoTransaction.begin(repo, "main", io);
    // An array chunk, written through zarr-java...
    Array temps = Array.open(tx.zarrStore().resolve("temps"));
    temps.write(new long[] {4}, ucar.ma2.Array.factory(ucar.ma2.DataType.FLOAT, new int[] {4},
        new float[] {20.5f, 21f, 19.5f, 18f}));
    // ...and the rows describing it, as a Parquet data file with its column statistics.
    tx.appendFiles("granules", List.of(granule));
    // One Icechunk commit holds both; nothing is published if it fails.
    return tx.commit("ingest G-7", Map.of("author", "pipeline"));
    // README end
  }
}
