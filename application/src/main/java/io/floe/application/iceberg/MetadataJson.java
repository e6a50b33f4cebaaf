package io.floe.application.iceberg;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.apache.iceberg.Schema;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.TableMetadataParser.Codec;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.util.JsonUtil;

/**
 * Metadata files as iceberg-core reads and writes them ({@code .gz.metadata.json} compressed),
 * within {@link MetadataLimits}: a file is read to at most the limit's bytes (uncompressed, so a
 * small compressed file cannot unpack into a large one) and its schemas are checked on the JSON,
 * before iceberg-core builds anything from it; a file to write is refused, before anything is
 * written, when it would break the limits.
 */
final class MetadataJson {
  private MetadataJson() {}

  /** A file's JSON and its size in bytes, uncompressed. */
  record Document(JsonNode json, long bytes) {}

  static Document read(InputFile file, MetadataLimits limits) {
    String what = "metadata file '" + file.location() + "'";
    // One byte past the limit tells a file at the limit from a larger one.
    int readAtMost = (int) Math.min(limits.maxMetadataBytes() + 1, Integer.MAX_VALUE - 8);
    byte[] bytes;
    JsonNode json;
    try (InputStream raw = file.newStream()) {
      bytes = Codec.fromFileName(file.location()) == Codec.GZIP
          ? new GZIPInputStream(raw).readNBytes(readAtMost) : raw.readNBytes(readAtMost);
      limits.checkSize(bytes.length, what);
      json = JsonUtil.mapper().readTree(bytes);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + what, e);
    }
    limits.checkDocument(json, what);
    return new Document(json, bytes.length);
  }

  /** A table's metadata file, read once, without the cache. */
  static TableMetadata readTable(FileIO io, String location, MetadataLimits limits) {
    return TableMetadataParser.fromJson(location, read(io.newInputFile(location), limits).json());
  }

  /**
   * The bytes of a metadata file about to be written, refused when the file or its schemas
   * would break the limits. {@code what} names the metadata in a refusal.
   */
  static byte[] bounded(String json, Collection<Schema> schemas, MetadataLimits limits,
      String what) {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    limits.checkSize(bytes.length, what);
    limits.checkSchemas(schemas, what);
    return bytes;
  }

  /** Writes a new file (never over an existing one), compressed if its name says so. */
  static void write(OutputFile file, byte[] json) {
    try (OutputStream out = file.create()) {
      if (Codec.fromFileName(file.location()) == Codec.GZIP) {
        GZIPOutputStream compressed = new GZIPOutputStream(out);
        compressed.write(json);
        compressed.finish();
      } else {
        out.write(json);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write metadata file " + file.location(), e);
    }
  }
}
