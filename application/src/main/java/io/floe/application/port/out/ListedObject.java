package io.floe.application.port.out;

import io.floe.domain.StoragePath;
import java.time.Instant;
import java.util.Objects;

/** One object as a listing reports it: key, size, and when it was last written. */
public record ListedObject(StoragePath key, long sizeBytes, Instant lastModified) {
  public ListedObject {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(lastModified, "lastModified");
  }
}
