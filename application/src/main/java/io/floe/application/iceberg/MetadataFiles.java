package io.floe.application.iceberg;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.floe.application.port.out.MetadataFileIoProvider;
import io.floe.domain.BucketConfig;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Semaphore;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.rest.RESTCatalogProperties.SnapshotMode;
import org.apache.iceberg.view.ViewMetadata;
import org.apache.iceberg.view.ViewMetadataParser;

/**
 * Reads and writes Iceberg {@code metadata.json} files with iceberg-core's own parsers. Files are
 * immutable, so every read goes through a cache keyed by location; a new version always gets a
 * new file name, {@code <version>-<uuid>.metadata.json}, next to the table's other metadata.
 * Every file read or written stays within the server's {@link MetadataLimits}.
 */
public final class MetadataFiles {
  private static final Pattern VERSION = Pattern.compile("^(\\d+)-.*");
  /**
   * Parsing a metadata file of megabytes builds a tree of several times its size before the
   * metadata: at most this many files are parsed at once, so that loads of many large tables
   * cannot together take more memory than the heap has. More would not be quicker on the cores.
   */
  private static final int PARSES_AT_ONCE =
      Math.max(2, Math.min(4, Runtime.getRuntime().availableProcessors()));

  private record JsonKey(String location, SnapshotMode mode) {}

  private final MetadataFileIoProvider io;
  private final MetadataLimits limits;
  private final MetadataCache<TableMetadata> tables;
  private final MetadataCache<ViewMetadata> views;
  private final AsyncCache<JsonKey, SerializedMetadata> json;
  private final Semaphore parses = new Semaphore(PARSES_AT_ONCE, true);

  /** Metadata files within the {@link MetadataLimits#DEFAULTS default limits}. */
  public MetadataFiles(MetadataFileIoProvider io) {
    this(io, MetadataLimits.DEFAULTS);
  }

  /** Metadata files within {@code limits}, kept within this JVM's {@link MetadataMemory}. */
  public MetadataFiles(MetadataFileIoProvider io, MetadataLimits limits) {
    this(io, limits, MetadataMemory.ofThisJvm());
  }

  public MetadataFiles(MetadataFileIoProvider io, MetadataLimits limits, MetadataMemory memory) {
    this.io = io;
    this.limits = limits;
    this.tables = new MetadataCache<>(memory.tableFileBytes());
    this.views = new MetadataCache<>(memory.viewFileBytes());
    this.json = Caffeine.newBuilder()
        .maximumWeight(memory.serializedBytes())
        .weigher((JsonKey key, SerializedMetadata value) -> value.length())
        .buildAsync();
  }

  /** The limits every file read or written here stays within. */
  public MetadataLimits limits() {
    return limits;
  }

  /** The FileIO of a bucket, with the server's credentials. */
  public FileIO io(BucketConfig bucket) {
    return io.fileIo(bucket);
  }

  /**
   * The FileIO of a bucket confined to one table ({@link TableScopedFileIO}): what the server
   * reads, writes or deletes on the table's behalf goes through it, so that no manifest can make
   * it touch a file outside {@code rootUri}.
   */
  public TableScopedFileIO tableIo(BucketConfig bucket, String rootUri) {
    return TableScopedFileIO.confine(io.fileIo(bucket), TableBoundary.of(bucket, rootUri));
  }

  public TableMetadata readTable(BucketConfig bucket, String location) {
    return tables.get(location, loc -> parse(bucket, loc, TableMetadataParser::fromJson));
  }

  /**
   * The table's metadata at {@code location} as a load returns it: whole, or with only the
   * snapshots its branches and tags reference ({@link SnapshotMode#REFS}).
   */
  public TableMetadata readTable(BucketConfig bucket, String location, SnapshotMode mode) {
    TableMetadata metadata = readTable(bucket, location);
    return mode == SnapshotMode.REFS ? TableMetadata.buildFrom(metadata)
        .withMetadataLocation(location).suppressHistoricalSnapshots().build() : metadata;
  }

  /**
   * {@link #readTable(BucketConfig, String, SnapshotMode)} serialized as JSON: made once per file
   * and mode (concurrent loads of one wait for the one making it) and kept, so a load of a table
   * of thousands of snapshots neither parses nor serializes anything.
   */
  public SerializedMetadata tableJson(BucketConfig bucket, String location, SnapshotMode mode) {
    JsonKey key = new JsonKey(location, mode);
    CompletableFuture<SerializedMetadata> made = new CompletableFuture<>();
    CompletableFuture<SerializedMetadata> existing = json.asMap().putIfAbsent(key, made);
    if (existing != null) {
      return joined(existing);
    }
    try {
      made.complete(SerializedMetadata.of(readTable(bucket, location, mode)));
    } catch (RuntimeException | Error e) {
      json.asMap().remove(key, made);
      made.completeExceptionally(e);
      throw e;
    }
    return joined(made);
  }

  private static <T> T joined(CompletableFuture<T> future) {
    try {
      return future.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw e;
    }
  }

  public ViewMetadata readView(BucketConfig bucket, String location) {
    return views.get(location, loc -> parse(bucket, loc, ViewMetadataParser::fromJson));
  }

  /**
   * Reads and parses the table metadata file at {@code location} again, past the cache: whether it
   * is there and readable now. Throws what a read would.
   */
  public void verifyTable(BucketConfig bucket, String location) {
    parse(bucket, location, TableMetadataParser::fromJson);
  }

  /** As {@link #verifyTable}, for a view's metadata file. */
  public void verifyView(BucketConfig bucket, String location) {
    parse(bucket, location, ViewMetadataParser::fromJson);
  }

  /**
   * A metadata file parsed with {@code parser} once its JSON passed the limits, and the bytes it
   * was parsed from.
   */
  private <T> MetadataCache.Sized<T> parse(BucketConfig bucket, String location,
      BiFunction<String, JsonNode, T> parser) {
    parses.acquireUninterruptibly();
    try {
      MetadataJson.Document file =
          MetadataJson.read(io.fileIo(bucket).newInputFile(location), limits);
      return new MetadataCache.Sized<>(parser.apply(location, file.json()), file.bytes());
    } finally {
      parses.release();
    }
  }

  /** Writes {@code metadata} as the version after {@code previous}; returns it with its location. */
  public TableMetadata writeTable(BucketConfig bucket, TableMetadata metadata,
      Optional<String> previous) {
    TableMetadata placed = placeTable(metadata, previous);
    writePlaced(bucket, placed);
    return placed;
  }

  /**
   * The metadata with the location its file will have as the version after {@code previous},
   * without writing it yet.
   */
  public TableMetadata placeTable(TableMetadata metadata, Optional<String> previous) {
    String codec = metadata.property(TableProperties.METADATA_COMPRESSION,
        TableProperties.METADATA_COMPRESSION_DEFAULT);
    String location = newFileLocation(metadataDirectory(metadata), previous,
        TableMetadataParser.getFileExtension(TableMetadataParser.Codec.fromName(codec)));
    return TableMetadata.buildFrom(metadata).discardChanges().withMetadataLocation(location).build();
  }

  /**
   * Writes metadata {@link #placeTable placed} before to its file, unless it would break the
   * limits (then nothing is written). Once the file is written (and closed, which forces it to
   * disk), the metadata is kept as if read back from it: the next commit to the table reads
   * exactly this version, and need not parse it again.
   */
  public void writePlaced(BucketConfig bucket, TableMetadata placed) {
    byte[] json = MetadataJson.bounded(TableMetadataParser.toJson(placed), placed.schemas(),
        limits, "the table's new metadata");
    MetadataJson.write(io.fileIo(bucket).newOutputFile(placed.metadataFileLocation()), json);
    tables.put(placed.metadataFileLocation(), new MetadataCache.Sized<>(placed, json.length));
  }

  /**
   * Removes a metadata file that a failed change wrote and nothing points at; a failure to remove
   * it is added to {@code failure} rather than hiding it.
   */
  public void deleteQuietly(BucketConfig bucket, String location, RuntimeException failure) {
    try {
      io.fileIo(bucket).deleteFile(location);
    } catch (RuntimeException e) {
      failure.addSuppressed(e);
    }
  }

  public ViewMetadata writeView(BucketConfig bucket, ViewMetadata metadata,
      Optional<String> previous) {
    String location = newFileLocation(metadata.location() + "/metadata", previous, ".metadata.json");
    String json = ViewMetadataParser.toJson(metadata);
    MetadataJson.write(io.fileIo(bucket).newOutputFile(location),
        MetadataJson.bounded(json, metadata.schemas(), limits, "the view's new metadata"));
    return ViewMetadataParser.fromJson(location, json);
  }

  /** Where a table's metadata files go: {@code write.metadata.path}, else under its location. */
  public static String metadataDirectory(TableMetadata metadata) {
    String configured = metadata.property(TableProperties.WRITE_METADATA_LOCATION, null);
    return configured != null ? stripTrailingSlash(configured) : metadata.location() + "/metadata";
  }

  private static String newFileLocation(String directory, Optional<String> previous,
      String extension) {
    int version = previous.map(MetadataFiles::versionOf).orElse(-1) + 1;
    return String.format(Locale.ROOT, "%s/%05d-%s%s", directory, version, UUID.randomUUID(),
        extension);
  }

  private static int versionOf(String metadataLocation) {
    String fileName = metadataLocation.substring(metadataLocation.lastIndexOf('/') + 1);
    Matcher matcher = VERSION.matcher(fileName);
    if (matcher.matches()) {
      try {
        return Integer.parseInt(matcher.group(1));
      } catch (NumberFormatException e) {
        return -1;
      }
    }
    return -1;
  }

  private static String stripTrailingSlash(String path) {
    return path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
  }
}
