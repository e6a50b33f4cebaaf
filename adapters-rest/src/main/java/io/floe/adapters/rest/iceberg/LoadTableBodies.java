package io.floe.adapters.rest.iceberg;

import com.fasterxml.jackson.core.JsonGenerator;
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
