package io.floe.application.iceberg;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.util.JsonUtil;

/**
 * A table's metadata as JSON, exactly as Iceberg's {@code TableMetadataParser} writes it, made
 * once per metadata file and snapshot mode and shared by every response that carries it: a load
 * writes these bytes out instead of serializing the metadata again. Immutable.
 */
public final class SerializedMetadata {
  private final byte[] json;

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
}
