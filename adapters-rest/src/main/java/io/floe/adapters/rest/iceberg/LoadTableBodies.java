package io.floe.adapters.rest.iceberg;

import com.fasterxml.jackson.core.JsonGenerator;
import io.floe.application.iceberg.SerializedMetadata;
import io.floe.application.port.in.table.LoadTableUseCase.LoadedTable;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import org.apache.iceberg.rest.credentials.Credential;
import org.apache.iceberg.rest.credentials.CredentialParser;
import org.apache.iceberg.util.JsonUtil;

/**
 * loadTable's JSON body, as Iceberg's {@code LoadTableResponseParser} writes it, around the
 * table's metadata JSON that the application made once for the metadata file and shares: a load
 * of a table of megabytes copies no metadata and serializes only the few fields around it
 * (location, storage configuration, credentials).
 */
final class LoadTableBodies {
  /** RFC 1952: magic, DEFLATE, no flags, no modification time, no extra flags, unknown OS. */
  private static final byte[] GZIP_HEADER = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff};
  /** The bytes around the metadata are few: compressing them fast loses nothing. */
  private static final int FAST = 1;

  private LoadTableBodies() {}

  /** A body and its length in bytes. */
  record Body(InputStream stream, long length) {}

  static Body body(LoadedTable loaded) {
    byte[] head = head(loaded.metadataLocation());
    byte[] tail = tail(loaded.config(), loaded.credentials());
    InputStream stream = new SequenceInputStream(new ByteArrayInputStream(head),
        new SequenceInputStream(loaded.metadataJson().stream(), new ByteArrayInputStream(tail)));
    return new Body(stream, (long) head.length + loaded.metadataJson().length() + tail.length);
  }

  /**
   * The same body as one gzip member, for a client that accepts gzip: the few bytes around the
   * metadata are compressed per request, the metadata's own blocks were compressed once for its
   * file ({@link SerializedMetadata#deflated}). One member, not several concatenated, since not
   * every HTTP client reads past the first.
   */
  static byte[] gzipped(LoadedTable loaded) {
    byte[] head = head(loaded.metadataLocation());
    byte[] tail = tail(loaded.config(), loaded.credentials());
    SerializedMetadata metadata = loaded.metadataJson();
    byte[] middle = metadata.deflated();
    byte[] first = SerializedMetadata.deflate(head, FAST, false);
    byte[] last = SerializedMetadata.deflate(tail, FAST, true);
    CRC32 crc = new CRC32();
    crc.update(head);
    metadata.updateChecksum(crc);
    crc.update(tail);
    long size = (long) head.length + metadata.length() + tail.length;
    ByteArrayOutputStream out = new ByteArrayOutputStream(
        GZIP_HEADER.length + first.length + middle.length + last.length + 8);
    out.writeBytes(GZIP_HEADER);
    out.writeBytes(first);
    out.writeBytes(middle);
    out.writeBytes(last);
    writeIntLittleEndian(out, (int) crc.getValue());
    writeIntLittleEndian(out, (int) size); // ISIZE: the length modulo 2^32
    return out.toByteArray();
  }

  private static void writeIntLittleEndian(ByteArrayOutputStream out, int value) {
    out.write(value);
    out.write(value >>> 8);
    out.write(value >>> 16);
    out.write(value >>> 24);
  }

  /** {@code {"metadata-location":"...","metadata":} */
  private static byte[] head(String metadataLocation) {
    return ("{\"metadata-location\":" + jsonString(metadataLocation) + ",\"metadata\":")
        .getBytes(StandardCharsets.UTF_8);
  }

  /** {@code ,"config":{...},"storage-credentials":[...]}}, each only when not empty. */
  private static byte[] tail(Map<String, String> config, List<Credential> credentials) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(64);
    try {
      if (!config.isEmpty()) {
        out.write(",\"config\":".getBytes(StandardCharsets.UTF_8));
        try (JsonGenerator generator = JsonUtil.factory().createGenerator(out)) {
          generator.writeStartObject();
          for (Map.Entry<String, String> entry : config.entrySet()) {
            generator.writeStringField(entry.getKey(), entry.getValue());
          }
          generator.writeEndObject();
        }
      }
      if (!credentials.isEmpty()) {
        out.write(",\"storage-credentials\":".getBytes(StandardCharsets.UTF_8));
        try (JsonGenerator generator = JsonUtil.factory().createGenerator(out)) {
          generator.writeStartArray();
          for (Credential credential : credentials) {
            CredentialParser.toJson(credential, generator);
          }
          generator.writeEndArray();
        }
      }
      out.write('}');
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  private static String jsonString(String value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(value.length() + 2);
    try (JsonGenerator generator = JsonUtil.factory().createGenerator(out)) {
      generator.writeString(value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}
