package io.floe.application.iceberg;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Collection;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * How much schema and metadata one request may make Floe parse, decided here for every way a
 * schema or a metadata file reaches the server: request bodies of the Iceberg REST catalog (a
 * create, a commit's {@code add-schema}, a view, a transaction, a staged create), metadata files it
 * reads (register, load, commit, repo tables, garbage collection) and metadata files it writes.
 *
 * <p>iceberg-core indexes every field of a schema by its full name ({@code a.b.element.c}) as soon
 * as it builds the schema, so the work and memory of one schema grow with its fields times their
 * depth, not with its size in JSON: a 1.7 MB body of 850 nested lists around a tree of maps asks
 * for gigabytes. So limits are checked on the JSON before iceberg-core sees it:
 * <ul>
 *   <li>{@link #maxSchemaDepth}: how deep fields nest (a top-level column is at level 1; a
 *   struct's fields, a list's element, a map's key and value one level below their parent);</li>
 *   <li>{@link #maxSchemaFields}: the fields of one schema, nested ones, list elements and map
 *   keys and values included;</li>
 *   <li>{@link #maxMetadataBytes}: the size of a metadata file, read or written (uncompressed),
 *   and also the sum of the lengths of every field's full name in one request body or metadata
 *   file, which is what iceberg-core's index of the names holds.</li>
 *   <li>{@link #maxFormatVersion}: the highest table format version a table may be created in,
 *   upgraded to or registered with, at most the spec's last ({@link FormatVersions}).</li>
 * </ul>
 */
public record MetadataLimits(int maxSchemaDepth, int maxSchemaFields, long maxMetadataBytes,
    int maxFormatVersion) {
  public static final int DEFAULT_MAX_SCHEMA_DEPTH = 32;
  public static final int SPEC_MAX_FORMAT_VERSION = FormatVersions.SPEC_MAX;
  public static final int DEFAULT_MAX_SCHEMA_FIELDS = 20_000;
  /** The heap a parsed metadata file of the largest size may take, as a share of the heap. */
  static final int HEAP_SHARE = 16;
  private static final long MIB = 1024 * 1024;
  /** The least {@link #defaultMaxMetadataBytes} gives, whatever the heap. */
  static final long MIN_DEFAULT_METADATA_BYTES = 8 * MIB;

  /** The limits of a server with a 256 MiB heap, as {@code floe serve} runs it. */
  public static final MetadataLimits DEFAULTS = new MetadataLimits(DEFAULT_MAX_SCHEMA_DEPTH,
      DEFAULT_MAX_SCHEMA_FIELDS, defaultMaxMetadataBytes(256 * MIB));

  public MetadataLimits {
    if (maxSchemaDepth < 1 || maxSchemaFields < 1 || maxMetadataBytes < 1) {
      throw new IllegalArgumentException("metadata limits must be positive, got depth "
          + maxSchemaDepth + ", fields " + maxSchemaFields + ", bytes " + maxMetadataBytes);
    }
    FormatVersions.requireDefined(maxFormatVersion);
  }

  /** Limits allowing every format version the spec defines. */
  public MetadataLimits(int maxSchemaDepth, int maxSchemaFields, long maxMetadataBytes) {
    this(maxSchemaDepth, maxSchemaFields, maxMetadataBytes, SPEC_MAX_FORMAT_VERSION);
  }

  /** The default limits for a JVM whose heap may grow to {@code maxHeapBytes}. */
  public static MetadataLimits forHeap(long maxHeapBytes) {
    return new MetadataLimits(DEFAULT_MAX_SCHEMA_DEPTH, DEFAULT_MAX_SCHEMA_FIELDS,
        defaultMaxMetadataBytes(maxHeapBytes));
  }

  /**
   * A sixteenth of the heap, in whole MiB, and at least 8 MiB: parsed, a metadata file takes
   * several times its size while its JSON tree and iceberg-core's objects both live, and a few
   * requests parse at once.
   */
  static long defaultMaxMetadataBytes(long maxHeapBytes) {
    return Math.max(MIN_DEFAULT_METADATA_BYTES, maxHeapBytes / HEAP_SHARE / MIB * MIB);
  }

  public MetadataLimits withMaxSchemaDepth(int depth) {
    return new MetadataLimits(depth, maxSchemaFields, maxMetadataBytes, maxFormatVersion);
  }

  public MetadataLimits withMaxSchemaFields(int fields) {
    return new MetadataLimits(maxSchemaDepth, fields, maxMetadataBytes, maxFormatVersion);
  }

  public MetadataLimits withMaxMetadataBytes(long bytes) {
    return new MetadataLimits(maxSchemaDepth, maxSchemaFields, bytes, maxFormatVersion);
  }

  public MetadataLimits withMaxFormatVersion(int version) {
    return new MetadataLimits(maxSchemaDepth, maxSchemaFields, maxMetadataBytes, version);
  }

  /** Refuses a rise of a table's format version above the limit ({@link FormatVersions}). */
  public void checkFormatVersion(TableMetadata before, TableMetadata after, String what) {
    FormatVersions.requireAllowed(maxFormatVersion, before, after, what);
  }

  /**
   * Refuses a JSON document (a request body, a metadata file) whose schemas break the limits.
   * Every struct type found outside another type is taken for a schema: that is where Iceberg's
   * JSON carries them ({@code schema}, {@code schemas}, an {@code add-schema} update), whatever
   * the document.
   *
   * @throws MetadataLimitException naming {@code what} the document is
   */
  public void checkDocument(JsonNode document, String what) {
    SchemaTally tally = new SchemaTally(this, what);
    findSchemas(document, tally);
  }

  /** Refuses metadata about to be written whose schemas break the limits. */
  public void checkSchemas(Collection<Schema> schemas, String what) {
    SchemaTally tally = new SchemaTally(this, what);
    for (Schema schema : schemas) {
      tally.startSchema();
      for (Types.NestedField column : schema.columns()) {
        countField(tally, column.name().length(), 0, 1, column.type());
      }
    }
  }

  /** Refuses a metadata file (read or about to be written) of more than the limit's bytes. */
  public void checkSize(long bytes, String what) {
    if (bytes > maxMetadataBytes) {
      throw MetadataLimitException.tooLarge(what, maxMetadataBytes);
    }
  }

  private static void findSchemas(JsonNode node, SchemaTally tally) {
    if (node.isObject()) {
      if (isStruct(node)) {
        tally.startSchema();
        countFields(node, tally, 0, 1);
        return;
      }
      for (Map.Entry<String, JsonNode> field : node.properties()) {
        findSchemas(field.getValue(), tally);
      }
    } else if (node.isArray()) {
      for (JsonNode element : node) {
        findSchemas(element, tally);
      }
    }
  }

  private static boolean isStruct(JsonNode node) {
    return "struct".equals(node.path("type").textValue()) && node.path("fields").isArray();
  }

  /** The fields of a struct type whose own full name is {@code parentName} characters long. */
  private static void countFields(JsonNode struct, SchemaTally tally, long parentName,
      int level) {
    for (JsonNode field : struct.path("fields")) {
      String name = field.path("name").textValue();
      countField(tally, name == null ? 0 : name.length(), parentName, level, field.get("type"));
    }
  }

  private static void countField(SchemaTally tally, int nameLength, long parentName, int level,
      JsonNode type) {
    long fullName = tally.field(nameLength, parentName, level);
    if (type == null || !type.isObject()) {
      return; // a primitive type, or something Iceberg's parser refuses
    }
    switch (String.valueOf(type.path("type").textValue())) {
      case "struct" -> countFields(type, tally, fullName, level + 1);
      case "list" -> countField(tally, "element".length(), fullName, level + 1,
          type.get("element"));
      case "map" -> {
        countField(tally, "key".length(), fullName, level + 1, type.get("key"));
        countField(tally, "value".length(), fullName, level + 1, type.get("value"));
      }
      default -> { }
    }
  }

  private static void countField(SchemaTally tally, int nameLength, long parentName, int level,
      Type type) {
    long fullName = tally.field(nameLength, parentName, level);
    if (type.isNestedType()) {
      for (Types.NestedField child : type.asNestedType().fields()) {
        countField(tally, child.name().length(), fullName, level + 1, child.type());
      }
    }
  }

  /** What one document's schemas add up to, refused as soon as one limit is passed. */
  private static final class SchemaTally {
    private final MetadataLimits limits;
    private final String what;
    private int fieldsOfSchema;
    private long fullNameCharacters;

    SchemaTally(MetadataLimits limits, String what) {
      this.limits = limits;
      this.what = what;
    }

    void startSchema() {
      fieldsOfSchema = 0;
    }

    /** Counts a field at {@code level}; returns the length of its full name. */
    long field(int nameLength, long parentName, int level) {
      if (level > limits.maxSchemaDepth) {
        throw MetadataLimitException.tooDeep(what, limits.maxSchemaDepth);
      }
      if (++fieldsOfSchema > limits.maxSchemaFields) {
        throw MetadataLimitException.tooManyFields(what, limits.maxSchemaFields);
      }
      long fullName = level == 1 ? nameLength : parentName + 1 + nameLength;
      fullNameCharacters += fullName;
      if (fullNameCharacters > limits.maxMetadataBytes) {
        throw MetadataLimitException.namesTooLong(what, limits.maxMetadataBytes);
      }
      return fullName;
    }
  }
}
