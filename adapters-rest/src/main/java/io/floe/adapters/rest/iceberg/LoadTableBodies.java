package io.floe.adapters.rest.iceberg;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.floe.application.port.in.table.LoadTableUseCase.LoadedTable;
import java.nio.charset.StandardCharsets;
import org.apache.iceberg.rest.RESTCatalogProperties.SnapshotMode;
import org.apache.iceberg.rest.responses.LoadTableResponse;

/**
 * loadTable's JSON bodies, kept per metadata file and snapshot mode: a metadata file never
 * changes, so the body made from it alone never does either, and the request engines send most
 * skips serializing the table's metadata. Bodies that carry storage access (vended credentials,
 * signing configuration) are made per request and never kept.
 */
final class LoadTableBodies {
  /** Bounded by the bytes kept, so that large tables cannot crowd the server's memory. */
  private static final long MAX_BYTES = 32L * 1024 * 1024;

  private record Key(String metadataLocation, SnapshotMode mode) {}

  private final Cache<Key, byte[]> bodies = Caffeine.newBuilder()
      .maximumWeight(MAX_BYTES)
      .<Key, byte[]>weigher((key, body) -> body.length)
      .build();

  byte[] body(LoadedTable loaded, SnapshotMode mode) {
    LoadTableResponse response = loaded.response();
    if (!response.config().isEmpty() || !response.credentials().isEmpty()) {
      return serialize(response);
    }
    return bodies.get(new Key(loaded.metadataLocation(), mode), key -> serialize(response));
  }

  private static byte[] serialize(LoadTableResponse response) {
    return RestJson.write(response).getBytes(StandardCharsets.UTF_8);
  }
}
