package io.floe.adapters.icechunk.engine;

import io.floe.adapters.icechunk.format.ObjectId12;
import java.time.Instant;
import java.util.Map;

/** One commit of the history: id, parent (null for the first), message, time and metadata. */
public record CommitInfo(ObjectId12 id, ObjectId12 parentId, String message, Instant flushedAt,
    Map<String, Object> metadata) {

  static Instant fromMicros(long micros) {
    return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L),
        Math.floorMod(micros, 1_000_000L) * 1000L);
  }

  static long toMicros(Instant t) {
    return Math.multiplyExact(t.getEpochSecond(), 1_000_000L) + t.getNano() / 1000L;
  }
}
