package io.floe.application.model;

import io.floe.domain.StoragePath;
import java.time.Instant;
import java.util.Objects;

/**
 * What an object store tells about one object: its key, size, when it was last written, and an
 * entity tag that changes whenever its content is replaced, which a conditional write compares.
 */
public record StoredObjectInfo(StoragePath key, long size, Instant lastModified, String etag) {
  public StoredObjectInfo {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(lastModified, "lastModified");
    Objects.requireNonNull(etag, "etag");
  }
}
