package io.floe.application.iceberg;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.zip.Checksum;
import java.util.zip.Deflater;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.util.JsonUtil;

/**
 * A table's metadata as JSON, exactly as Iceberg's {@code TableMetadataParser} writes it, made
 * once per metadata file and snapshot mode and shared by every response that carries it: a load
 * writes these bytes out instead of serializing the metadata again. Immutable.
 */
public final class SerializedMetadata {
  /** Compressed once per metadata file, so a slower, tighter level costs nothing per request. */
  private static final int DEFLATE_LEVEL = 6;

  private final byte[] json;
  /** The JSON as raw DEFLATE blocks, made on first use (a benign race may make it twice). */
  private volatile byte[] deflated;

  private SerializedMetadata(byte[] json) {
    this.json = json;
  }

  /** {@code metadata} serialized as {@code TableMetadataParser.toJson} writes it. */
  public static SerializedMetadata of(TableMetadata metadata) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(16 * 1024);
    try (JsonGenerator generator = JsonUtil.factory().createGenerator(bytes)) {
      TableMetadataParser.toJson(metadata, generator);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new SerializedMetadata(bytes.toByteArray());
  }

  /** The size in bytes. */
  public int length() {
    return json.length;
  }

  /** The JSON, read without copying. */
  public InputStream stream() {
    return new ByteArrayInputStream(json);
  }

  public void writeTo(OutputStream out) throws IOException {
    out.write(json);
  }

  /** Adds the JSON's bytes to {@code checksum}, without copying them. */
  public void updateChecksum(Checksum checksum) {
    checksum.update(json, 0, json.length);
  }

  /**
   * The JSON compressed as raw DEFLATE blocks (no zlib or gzip framing), ended by a sync flush
   * rather than a final block: a response can put other blocks before and after it and frame the
   * whole as one gzip member. The blocks refer to nothing before them, as a fresh stream's do.
   * Kept beside the JSON (about a tenth of its size) once a client that accepts gzip asked.
   */
  public byte[] deflated() {
    byte[] made = deflated;
    if (made == null) {
      made = deflate(json, DEFLATE_LEVEL, false);
      deflated = made;
    }
    return made;
  }

  /**
   * {@code bytes} as raw DEFLATE blocks: ended by a sync flush (byte-aligned, not final, so more
   * blocks may follow) or, when {@code last}, by a final block.
   */
  public static byte[] deflate(byte[] bytes, int level, boolean last) {
    Deflater deflater = new Deflater(level, true);
    try {
      deflater.setInput(bytes);
      if (last) {
        deflater.finish();
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, bytes.length / 6));
      byte[] buffer = new byte[64 * 1024];
      while (true) {
        int n = deflater.deflate(buffer, 0, buffer.length,
            last ? Deflater.NO_FLUSH : Deflater.SYNC_FLUSH);
        out.write(buffer, 0, n);
        // A flush is complete once it left room in the buffer; a finish once it says so.
        if (last ? deflater.finished() : n < buffer.length && deflater.needsInput()) {
          return out.toByteArray();
        }
      }
    } finally {
      deflater.end();
    }
  }
}
