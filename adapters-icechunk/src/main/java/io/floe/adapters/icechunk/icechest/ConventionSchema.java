package io.floe.adapters.icechunk.icechest;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The convention's JSON schemas, shipped as resources and applied with networknt's validator:
 * the one place that decides whether a declaration or a pointer map is well-formed.
 */
public final class ConventionSchema {
  public static final String GROUP_SCHEMA = "/conventions/icechunk-iceberg/schema.json";
  public static final String COMMIT_METADATA_SCHEMA =
      "/conventions/icechunk-iceberg/commit-metadata.schema.json";

  private static final SchemaRegistry REGISTRY =
      SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
  private static final Schema GROUP = load(GROUP_SCHEMA);
  private static final Schema COMMIT_METADATA = load(COMMIT_METADATA_SCHEMA);

  private ConventionSchema() {}

  /** Problems of a declaring group's zarr.json; empty when it conforms. */
  public static List<String> checkGroup(JsonNode zarrJson) {
    return messages(GROUP.validate(zarrJson));
  }

  /** Problems of a snapshot's commit metadata (all of it, as a JSON object). */
  public static List<String> checkCommitMetadata(JsonNode commitMetadata) {
    return messages(COMMIT_METADATA.validate(commitMetadata));
  }

  private static List<String> messages(List<Error> errors) {
    return errors.stream().map(e -> e.getInstanceLocation() + ": " + e.getMessage()).toList();
  }

  private static Schema load(String resource) {
    try (InputStream in = ConventionSchema.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + resource);
      }
      return REGISTRY.getSchema(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
