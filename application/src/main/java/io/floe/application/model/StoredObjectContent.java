package io.floe.application.model;

import java.io.InputStream;

/**
 * Bytes of one object being read: {@code length} bytes from {@code offset}, as a stream the
 * reader must close.
 */
public record StoredObjectContent(StoredObjectInfo info, long offset, long length,
    InputStream stream) implements AutoCloseable {
  @Override
  public void close() {
    try {
      stream.close();
    } catch (java.io.IOException e) {
      // Closing a stream that was only read releases a file handle; nothing is left to undo.
    }
  }
}
