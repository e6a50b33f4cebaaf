package io.floe.application.port.out;

import java.util.Objects;

/**
 * An object's bytes and the version they were read at. The version is opaque (an ETag, a GCS
 * generation, a content hash) and only good for a later conditional write to the same key.
 */
public record StoredObject(byte[] data, String version) {
  public StoredObject {
    Objects.requireNonNull(data, "data");
    Objects.requireNonNull(version, "version");
  }
}
