package io.floe.application.service.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.model.TablePreview;
import io.floe.application.port.out.MetadataPointers;
import io.floe.application.port.out.TableRowReader;
import io.floe.application.security.OrgContext;
import io.floe.application.testbed.Testbed;
import io.floe.domain.Action;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import io.floe.domain.Role;
import io.floe.domain.Visibility;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotParser;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.io.FileIO;
import org.junit.jupiter.api.Test;

/**
 * The web app's preview of a table on the fakes, with a reader of rows that answers what a test
 * gives it: only for callers who may read the table; counts from the current snapshot's summary;
 * a table without a snapshot, a reader that fails and data files too large to read each say so
 * instead of failing the page; values shown as text, binary as hex, each cut to a bounded length.
 */
class TablePreviewServiceTest {
  private final Testbed bed = new Testbed();
  private final QueuedRows rows = new QueuedRows();
  private final TablePreviewService preview = new TablePreviewService(new LoadTableService(
      bed.locator(), bed.policy(), bed.files, bed.storageAccess()), bed.store.orgs(),
      bed.metadataIo, rows);
  private final Namespace sales = bed.namespace("sales", Visibility.PRIVATE);
  private final CatalogObject orders = bed.table(sales, "orders");
  private final OrgContext reader = bed.member("reader", Role.MEMBER);
  private final TableIdentifier ordersId = TableIdentifier.of("sales", "orders");

  /** Answers with the rows queued, or fails; remembers how it was asked. */
  private static final class QueuedRows implements TableRowReader {
    List<List<Object>> answer = List.of();
    boolean skipped;
    RuntimeException failure;
    /** A file the reader opens first, as a data file its manifests name. */
    String opens;
    final List<String> asked = new ArrayList<>();

    @Override
    public TableRowReader.Rows firstRows(TableMetadata metadata, FileIO io, List<String> columns,
        int limit, long maxFileBytes) {
      asked.add(columns + " " + limit + " " + maxFileBytes);
      if (failure != null) {
        throw failure;
      }
      if (opens != null) {
        io.newInputFile(opens);
      }
      return new TableRowReader.Rows(answer, skipped);
    }
  }

  TablePreviewServiceTest() {
    bed.grant(reader.caller().principal().id(), sales, Optional.empty(), Action.READ);
  }

  /** The table's next version has a snapshot whose summary counts three rows in one file. */
  private void appended() {
    TableMetadata base = bed.current(sales, orders);
    Snapshot snapshot = SnapshotParser.fromJson("{\"snapshot-id\":7,\"sequence-number\":1,"
        + "\"timestamp-ms\":" + (base.lastUpdatedMillis() + 1) + ",\"summary\":{"
        + "\"operation\":\"append\",\"total-records\":\"3\",\"total-data-files\":\"1\"},"
        + "\"manifest-list\":\"" + base.location() + "/metadata/snap-7.avro\",\"schema-id\":0}");
    TableMetadata next = bed.files.writeTable(bed.bucket, TableMetadata.buildFrom(base)
        .setBranchSnapshot(snapshot, "main").build(), Optional.of(base.metadataFileLocation()));
    assertThat(bed.store.pointers().swap(List.of(MetadataPointers.Move.of(
        new MetadataPointers.Row(orders.id()), base.metadataFileLocation(),
        next.metadataFileLocation())), bed.clock.instant())).isTrue();
  }

  @Test
  void aTableWithoutASnapshotHoldsNoRowsAndTheReaderIsNotAsked() {
    TablePreview shown = preview.preview(reader, ordersId);

    assertThat(shown.columns()).containsExactly("id");
    assertThat(shown.rows()).isEmpty();
    assertThat(shown.totalRows()).contains(0L);
    assertThat(shown.note()).hasValueSatisfying(note -> assertThat(note).contains("no snapshot"));
    assertThat(rows.asked).isEmpty();
  }

  @Test
  void theFirstRowsAreShownAsTextWithTheSnapshotsCounts() {
    appended();
    rows.answer = List.of(List.<Object>of(1L), Arrays.asList((Object) null),
        List.<Object>of(ByteBuffer.wrap(new byte[] {(byte) 0xca, (byte) 0xfe})));

    TablePreview shown = preview.preview(reader, ordersId);

    assertThat(shown.rows()).containsExactly(List.of("1"), List.of("null"), List.of("0xcafe"));
    assertThat(shown.totalRows()).contains(3L);
    assertThat(shown.dataFiles()).contains(1L);
    assertThat(shown.hiddenColumns()).isZero();
    assertThat(shown.note()).isEmpty();
    assertThat(rows.asked).containsExactly("[id] " + TablePreviewService.ROWS + " "
        + TablePreviewService.MAX_FILE_BYTES);
  }

  @Test
  void aLongValueIsCutAndFilesTooLargeToReadAreNoted() {
    appended();
    rows.answer = List.of(List.<Object>of("x".repeat(TablePreviewService.CELL_CHARS + 50)));
    rows.skipped = true;

    TablePreview shown = preview.preview(reader, ordersId);

    assertThat(shown.rows().get(0).get(0))
        .isEqualTo("x".repeat(TablePreviewService.CELL_CHARS) + "…");
    assertThat(shown.note()).hasValueSatisfying(note -> assertThat(note).contains("MiB"));
  }

  @Test
  void aReaderThatFailsLeavesThePageWithANoteInsteadOfRows() {
    appended();
    rows.failure = new IllegalStateException("file vanished");

    TablePreview shown = preview.preview(reader, ordersId);

    assertThat(shown.rows()).isEmpty();
    assertThat(shown.totalRows()).contains(3L);
    assertThat(shown.note()).hasValueSatisfying(note -> assertThat(note)
        .contains("could not read").contains("file vanished"));
  }

  @Test
  void aTableWhoseManifestsNameAnotherTablesFileShowsNoneOfItsRows() {
    CatalogObject customers = bed.table(sales, "customers");
    String foreign = bed.current(sales, customers).location() + "/data/part-0.parquet";
    appended();
    rows.answer = List.of(List.<Object>of(42L));
    rows.opens = foreign;

    TablePreview shown = preview.preview(reader, ordersId);

    assertThat(shown.rows()).isEmpty();
    assertThat(shown.totalRows()).contains(3L);
    assertThat(shown.note()).hasValueSatisfying(note -> assertThat(note)
        .contains("names a file outside the table").doesNotContain("customers"));
  }

  @Test
  void aCallerWhoMayNotReadTheTableIsToldItDoesNotExist() {
    OrgContext stranger = bed.member("stranger", Role.MEMBER);

    assertThatThrownBy(() -> preview.preview(stranger, ordersId))
        .isInstanceOf(NoSuchTableException.class);
    assertThat(rows.asked).isEmpty();
  }
}
