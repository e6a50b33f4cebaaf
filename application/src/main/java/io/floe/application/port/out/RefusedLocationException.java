package io.floe.application.port.out;

/**
 * Object storage refused a location or key because it is not canonical or resolves outside the
 * bucket root the adapter serves (on a local bucket: its real path, symbolic links followed).
 * The catalog's own checks refuse such locations first; this is the storage layer's own guard,
 * and it is a refusal of the request (4xx), never a server failure.
 */
public class RefusedLocationException extends StorageException {
  public RefusedLocationException(String message) {
    super(message);
  }
}
