package io.floe.application.service.table;

import io.floe.application.iceberg.ForeignTableFileException;
import io.floe.application.iceberg.TableBoundary;
import io.floe.application.iceberg.TableScopedFileIO;
import io.floe.application.model.TablePreview;
import io.floe.application.port.in.table.LoadTableUseCase;
import io.floe.application.port.in.table.PreviewTableUseCase;
import io.floe.application.port.out.MetadataFileIoProvider;
import io.floe.application.port.out.OrgStore;
import io.floe.application.port.out.TableRowReader;
import io.floe.application.security.OrgContext;
import io.floe.domain.BucketConfig;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalogProperties.SnapshotMode;
import org.apache.iceberg.types.Types;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first rows of a table, for the web app's table page: loaded as engines load the table (so
 * with the same check that the caller may read it), then read by the server through the
 * bucket's own FileIO, confined to the table's location ({@link TableScopedFileIO}), with
 * Iceberg's readers. The work is bounded: at most {@value #ROWS} rows of
 * the first {@value #COLUMNS} columns, each value cut to {@value #CELL_CHARS} characters, and only
 * from data files of at most {@value #MAX_FILE_BYTES} bytes. A table-level read grant reaches
 * every column, so every column is one the caller may read.
 */
public final class TablePreviewService implements PreviewTableUseCase {
  static final int ROWS = 20;
  static final int COLUMNS = 24;
  static final int CELL_CHARS = 200;
  static final long MAX_FILE_BYTES = 64L * 1024 * 1024;
  private static final Logger LOG = LoggerFactory.getLogger(TablePreviewService.class);

  private final LoadTableUseCase tables;
  private final OrgStore orgs;
  private final MetadataFileIoProvider fileIo;
  private final TableRowReader reader;

  public TablePreviewService(LoadTableUseCase tables, OrgStore orgs,
      MetadataFileIoProvider fileIo, TableRowReader reader) {
    this.tables = tables;
    this.orgs = orgs;
    this.fileIo = fileIo;
    this.reader = reader;
  }

  @Override
  public TablePreview preview(OrgContext context, TableIdentifier identifier) {
    TableMetadata metadata = tables.loadTable(context, identifier, SnapshotMode.REFS, Set.of())
        .response().tableMetadata();
    List<Types.NestedField> fields = metadata.schema().columns();
    List<String> columns = fields.stream().limit(COLUMNS).map(Types.NestedField::name).toList();
    int hidden = fields.size() - columns.size();
    Snapshot current = metadata.currentSnapshot();
    if (current == null) {
      return new TablePreview(columns, List.of(), Optional.of(0L), Optional.of(0L), hidden,
          Optional.of("The table has no snapshot yet: it holds no rows."));
    }
    Map<String, String> summary = current.summary() == null ? Map.of() : current.summary();
    Optional<Long> totalRows = count(summary, SnapshotSummary.TOTAL_RECORDS_PROP);
    Optional<Long> dataFiles = count(summary, SnapshotSummary.TOTAL_DATA_FILES_PROP);
    Optional<BucketConfig> bucket = orgs.buckets(context.org().id()).stream()
        .filter(candidate -> candidate.pathOf(metadata.location()).isPresent())
        .findFirst();
    if (bucket.isEmpty()) {
      return new TablePreview(columns, List.of(), totalRows, dataFiles, hidden,
          Optional.of("The table's files lie in none of the org's buckets: nothing to read."));
    }
    TableRowReader.Rows read;
    try {
      // Only files under the table's own location are read, whatever its manifests name: a
      // writer of this table must not be able to show the rows of another table here.
      read = reader.firstRows(metadata, TableScopedFileIO.confine(fileIo.fileIo(bucket.get()),
          TableBoundary.of(bucket.get(), metadata.location())), columns, ROWS, MAX_FILE_BYTES);
    } catch (RuntimeException e) {
      Optional<ForeignTableFileException> outside = ForeignTableFileException.in(e);
      if (outside.isPresent()) {
        LOG.warn("not previewing {}: {}", identifier, outside.get().getMessage());
        // The file is not named: a reader of this table need not learn another table's paths.
        return new TablePreview(columns, List.of(), totalRows, dataFiles, hidden, Optional.of(
            "The table's metadata names a file outside the table, so Floe shows none of its "
                + "rows; the server's log names the file."));
      }
      // The page still shows everything else; why the rows are missing goes to the log.
      LOG.warn("could not read rows of {} for its preview", identifier, e);
      return new TablePreview(columns, List.of(), totalRows, dataFiles, hidden,
          Optional.of("Floe could not read the table's data files: " + e.getMessage()));
    }
    List<List<String>> rows = new ArrayList<>();
    for (List<Object> row : read.rows()) {
      rows.add(row.stream().map(TablePreviewService::shown).toList());
    }
    Optional<String> note = read.skippedLargeFiles() && rows.size() < ROWS
        ? Optional.of("Data files larger than " + MAX_FILE_BYTES / (1024 * 1024)
            + " MiB are not read here; query the table with an engine to see their rows.")
        : Optional.empty();
    return new TablePreview(columns, rows, totalRows, dataFiles, hidden, note);
  }

  private static Optional<Long> count(Map<String, String> summary, String property) {
    try {
      return Optional.ofNullable(summary.get(property)).map(Long::parseLong);
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /** A value as the page shows it: text, binary as hex, cut to a bounded length. */
  static String shown(Object value) {
    String text;
    if (value == null) {
      text = "null";
    } else if (value instanceof ByteBuffer buffer) {
      ByteBuffer copy = buffer.duplicate();
      byte[] bytes = new byte[Math.min(copy.remaining(), CELL_CHARS / 2)];
      copy.get(bytes);
      text = "0x" + HexFormat.of().formatHex(bytes) + (buffer.remaining() > bytes.length
          ? "…" : "");
    } else if (value instanceof byte[] bytes) {
      text = "0x" + HexFormat.of().formatHex(bytes, 0, Math.min(bytes.length, CELL_CHARS / 2));
    } else {
      text = String.valueOf(value);
    }
    return text.length() > CELL_CHARS ? text.substring(0, CELL_CHARS) + "…" : text;
  }
}
