package io.floe.application.service.table.planning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.model.AccessDelegation;
import io.floe.application.port.out.MetadataPointers;
import io.floe.application.security.OrgContext;
import io.floe.application.testbed.RecordingStorageAccess;
import io.floe.application.testbed.Testbed;
import io.floe.domain.Action;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import io.floe.domain.Role;
import io.floe.domain.Visibility;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileMetadata;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.LocationProviders;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.encryption.EncryptionManager;
import org.apache.iceberg.encryption.PlaintextEncryptionManager;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NoSuchPlanIdException;
import org.apache.iceberg.exceptions.NoSuchPlanTaskException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;
import org.apache.iceberg.rest.PlanStatus;
import org.apache.iceberg.rest.requests.FetchScanTasksRequest;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.apache.iceberg.rest.responses.FetchScanTasksResponse;
import org.apache.iceberg.rest.responses.PlanTableScanResponse;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Scan planning on the fakes, over a real partitioned table whose snapshots iceberg-core wrote:
 * what a plan answers for a filter, an older snapshot, an incremental range, a position delete;
 * the errors (unknown column, unknown snapshot, a caller who may not read); large plans answered
 * as plan tasks whose pages, followed to the end, hold every task exactly once; and tokens that
 * open nothing for another caller, another table, or once altered.
 */
class PlanTableScanServiceTest {
  private static final Schema SCHEMA = new Schema(
      Types.NestedField.required(1, "id", Types.LongType.get()),
      Types.NestedField.required(2, "region", Types.StringType.get()));
  private static final PartitionSpec SPEC =
      PartitionSpec.builderFor(SCHEMA).identity("region").build();

  private final Testbed bed = new Testbed();
  private final ExecutorService readers = Executors.newFixedThreadPool(2);
  private final Namespace sales = bed.namespace("sales", Visibility.PRIVATE);
  private final OrgContext reader = bed.member("reader", Role.MEMBER);
  private final OrgContext other = bed.member("other", Role.MEMBER);
  private final OrgContext stranger = bed.member("stranger", Role.MEMBER);
  private final RecordingStorageAccess vending =
      new RecordingStorageAccess(bed.clock, true, false);
  private final PlanTokens tokens = new PlanTokens(new byte[32], bed.clock, Duration.ofHours(1));

  PlanTableScanServiceTest() {
    bed.grant(reader.caller().principal().id(), sales, Optional.empty(), Action.READ);
    bed.grant(other.caller().principal().id(), sales, Optional.empty(), Action.READ);
  }

  @AfterEach
  void stop() {
    readers.shutdownNow();
  }

  private PlanTableScanService service(int tasksPerPage) {
    return new PlanTableScanService(bed.locator(), bed.policy(), bed.files,
        bed.storageAccess(vending, vending), tokens,
        new ScanPlanningLimits(tasksPerPage, readers));
  }

  @Test
  void aPlanHandsOutTheFilesOfTheSnapshotWithTheirDeletesAndHonoursFilterAndSnapshots() {
    Table orders = table("orders");
    orders.newAppend().appendFile(file(orders, "a", "eu")).appendFile(file(orders, "b", "us"))
        .commit();
    long first = orders.currentSnapshot().snapshotId();
    orders.newAppend().appendFile(file(orders, "c", "eu")).commit();
    long second = orders.currentSnapshot().snapshotId();
    DeleteFile deletes = FileMetadata.deleteFileBuilder(orders.spec()).ofPositionDeletes()
        .withPath(orders.location() + "/data/region=eu/deletes.parquet")
        .withFileSizeInBytes(10).withRecordCount(1).withPartitionPath("region=eu").build();
    orders.newRowDelta().addDeletes(deletes).commit();
    PlanTableScanService planning = service(100);

    PlanTableScanResponse all = plan(planning, reader, "orders", PlanTableScanRequest.builder()
        .withSelect(List.of("id")).build(), AccessDelegation.VENDED_CREDENTIALS);
    assertThat(all.planStatus()).isEqualTo(PlanStatus.COMPLETED);
    assertThat(all.planTasks()).isEmpty();
    assertThat(names(all.fileScanTasks())).containsExactlyInAnyOrder("a", "b", "c");
    assertThat(all.fileScanTasks()).allSatisfy(task -> assertThat(task.deletes().size())
        .isEqualTo(task.file().location().contains("region=eu") ? 1 : 0));
    assertThat(all.deleteFiles()).extracting(DeleteFile::location)
        .containsExactly(deletes.location());
    assertThat(all.credentials()).singleElement().satisfies(credential ->
        assertThat(credential.prefix()).isEqualTo(orders.location()));

    PlanTableScanResponse us = plan(planning, reader, "orders", PlanTableScanRequest.builder()
        .withFilter(Expressions.equal("region", "us")).build());
    assertThat(names(us.fileScanTasks())).containsExactly("b");
    assertThat(us.deleteFiles()).isEmpty();
    assertThat(plan(planning, reader, "orders", PlanTableScanRequest.builder()
        .withFilter(Expressions.equal("REGION", "us")).withCaseSensitive(false).build())
        .fileScanTasks()).hasSize(1);

    PlanTableScanResponse older = plan(planning, reader, "orders",
        PlanTableScanRequest.builder().withSnapshotId(first).build());
    assertThat(names(older.fileScanTasks())).containsExactlyInAnyOrder("a", "b");
    assertThat(older.deleteFiles()).isEmpty();

    PlanTableScanResponse appended = plan(planning, reader, "orders", PlanTableScanRequest
        .builder().withStartSnapshotId(second).withEndSnapshotId(second).build());
    assertThat(names(appended.fileScanTasks())).containsExactly("c");
  }

  @Test
  void unknownColumnsAndSnapshotsAndCallersWhoMayNotReadAreRefusedAsALoadRefusesThem() {
    Table orders = table("orders");
    orders.newAppend().appendFile(file(orders, "a", "eu")).commit();
    PlanTableScanService planning = service(100);

    assertThatThrownBy(() -> plan(planning, reader, "orders", PlanTableScanRequest.builder()
        .withFilter(Expressions.equal("colour", "red")).build()))
        .isInstanceOf(ValidationException.class);
    assertThatThrownBy(() -> plan(planning, reader, "orders", PlanTableScanRequest.builder()
        .withSnapshotId(42L).build())).isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> plan(planning, stranger, "orders", PlanTableScanRequest.builder()
        .build())).isInstanceOf(NoSuchTableException.class);
  }

  @Test
  void aTableWithoutSnapshotsPlansNothingButStillChecksTheRequest() {
    table("orders");
    PlanTableScanService planning = service(100);
    assertThatThrownBy(() -> plan(planning, reader, "orders", PlanTableScanRequest.builder()
        .withFilter(Expressions.equal("region", 123)).build()))
        .isInstanceOf(ValidationException.class).hasMessageNotContaining("java.lang");
    assertThatThrownBy(() -> plan(planning, reader, "orders", PlanTableScanRequest.builder()
        .withSelect(List.of("colour")).build())).isInstanceOf(ValidationException.class);
    PlanTableScanResponse plan = plan(service(100), reader, "orders",
        PlanTableScanRequest.builder().build());
    assertThat(plan.planStatus()).isEqualTo(PlanStatus.COMPLETED);
    assertThat(plan.fileScanTasks()).isEmpty();
    assertThat(plan.planTasks()).isEmpty();
  }

  @Test
  void aLargePlanIsPagedAndItsPagesHoldEveryTaskOnce() {
    Table orders = table("orders");
    List<String> expected = new ArrayList<>();
    for (int commit = 0; commit < 4; commit++) {
      var append = orders.newAppend();
      for (int file = 0; file < 3; file++) {
        String name = "f" + commit + file;
        append.appendFile(file(orders, name, file % 2 == 0 ? "eu" : "us"));
        expected.add(name);
      }
      append.commit();
    }
    PlanTableScanService planning = service(2);

    PlanTableScanResponse plan = plan(planning, reader, "orders",
        PlanTableScanRequest.builder().build());
    assertThat(plan.fileScanTasks()).isEmpty();
    assertThat(plan.planTasks()).hasSize(4);

    List<String> fetched = new ArrayList<>();
    Deque<String> pending = new ArrayDeque<>(plan.planTasks());
    int fetches = 0;
    while (!pending.isEmpty()) {
      FetchScanTasksResponse page = planning.fetchTasks(reader, id("orders"),
          new FetchScanTasksRequest(pending.poll()));
      assertThat(page.fileScanTasks()).hasSizeLessThanOrEqualTo(2);
      fetched.addAll(names(page.fileScanTasks()));
      pending.addAll(page.planTasks());
      fetches++;
    }
    assertThat(fetched).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(fetches).isGreaterThan(4);

    String task = plan.planTasks().get(0);
    assertThatThrownBy(() -> planning.fetchTasks(other, id("orders"),
        new FetchScanTasksRequest(task))).isInstanceOf(NoSuchPlanTaskException.class);
    Table items = table("items");
    items.newAppend().appendFile(file(items, "x", "eu")).commit();
    assertThatThrownBy(() -> planning.fetchTasks(reader, id("items"),
        new FetchScanTasksRequest(task))).isInstanceOf(NoSuchPlanTaskException.class);
    String altered = (task.charAt(10) == 'A' ? "B" : "A");
    assertThatThrownBy(() -> planning.fetchTasks(reader, id("orders"), new FetchScanTasksRequest(
        task.substring(0, 10) + altered + task.substring(11))))
        .isInstanceOf(NoSuchPlanTaskException.class);
    assertThatThrownBy(() -> planning.fetchTasks(reader, id("orders"),
        new FetchScanTasksRequest(plan.planId()))).isInstanceOf(NoSuchPlanTaskException.class);

    bed.clock.advance(Duration.ofHours(2));
    assertThatThrownBy(() -> planning.fetchTasks(reader, id("orders"),
        new FetchScanTasksRequest(task))).isInstanceOf(NoSuchPlanTaskException.class);
  }

  @Test
  void aPlanIdAnswersItsPlanAgainForItsCallerOnlyAndCancellingIsANoOp() {
    Table orders = table("orders");
    orders.newAppend().appendFile(file(orders, "a", "eu")).commit();
    PlanTableScanService planning = service(100);
    PlanTableScanResponse plan = plan(planning, reader, "orders",
        PlanTableScanRequest.builder().build());

    assertThat(names(planning.result(reader, id("orders"), plan.planId()).fileScanTasks()))
        .containsExactly("a");
    assertThatThrownBy(() -> planning.result(other, id("orders"), plan.planId()))
        .isInstanceOf(NoSuchPlanIdException.class);
    assertThatThrownBy(() -> planning.result(reader, id("orders"), "not-a-plan"))
        .isInstanceOf(BadRequestException.class);
    planning.cancel(reader, id("orders"), plan.planId());
    planning.cancel(other, id("orders"), plan.planId());
    assertThatThrownBy(() -> planning.cancel(reader, id("orders"), "../x"))
        .isInstanceOf(BadRequestException.class);
  }

  @Test
  void aFileOutsideTheTableIsNeverHandedOut() {
    Table orders = table("orders");
    orders.newAppend().appendFile(DataFiles.builder(orders.spec())
        .withPath("s3://data/elsewhere/secret.parquet").withFileSizeInBytes(10)
        .withRecordCount(1).withPartitionPath("region=eu").build()).commit();

    assertThatThrownBy(() -> plan(service(100), reader, "orders",
        PlanTableScanRequest.builder().build())).isInstanceOf(ForbiddenException.class);
  }

  private PlanTableScanResponse plan(PlanTableScanService planning, OrgContext context,
      String table, PlanTableScanRequest request, AccessDelegation... delegation) {
    return planning.plan(context, id(table), request, Set.of(delegation));
  }

  private static TableIdentifier id(String name) {
    return TableIdentifier.of("sales", name);
  }

  private static List<String> names(List<FileScanTask> tasks) {
    return tasks.stream().map(task -> {
      String path = task.file().location();
      return path.substring(path.lastIndexOf('/') + 1, path.lastIndexOf('.'));
    }).toList();
  }

  private static DataFile file(Table table, String name, String region) {
    return DataFiles.builder(table.spec())
        .withPath(table.location() + "/data/region=" + region + "/" + name + ".parquet")
        .withFileSizeInBytes(100).withRecordCount(10).withPartitionPath("region=" + region)
        .build();
  }

  /** A partitioned table of the namespace, committed to through its catalog pointer. */
  private Table table(String name) {
    TableMetadata created = bed.files.writeTable(bed.bucket, TableMetadata.newTableMetadata(
        SCHEMA, SPEC, SortOrder.unsorted(),
        bed.bucket.uriOf(sales.prefix().resolve(name)), Map.of("format-version", "2")),
        Optional.empty());
    CatalogObject entry = bed.entry(sales, name, created.metadataFileLocation());
    return new BaseTable(new PointerOperations(entry, created), name);
  }

  private final class PointerOperations implements TableOperations {
    private final CatalogObject entry;
    private TableMetadata current;

    PointerOperations(CatalogObject entry, TableMetadata current) {
      this.entry = entry;
      this.current = current;
    }

    @Override
    public TableMetadata current() {
      return current;
    }

    @Override
    public TableMetadata refresh() {
      return current;
    }

    @Override
    public void commit(TableMetadata base, TableMetadata metadata) {
      TableMetadata written = bed.files.writeTable(bed.bucket, metadata,
          Optional.of(base.metadataFileLocation()));
      assertThat(bed.store.pointers().swap(List.of(MetadataPointers.Move.of(
          new MetadataPointers.Row(entry.id()), base.metadataFileLocation(),
          written.metadataFileLocation())), bed.clock.instant())).isTrue();
      current = written;
    }

    @Override
    public FileIO io() {
      return bed.files.io(bed.bucket);
    }

    @Override
    public EncryptionManager encryption() {
      return PlaintextEncryptionManager.instance();
    }

    @Override
    public String metadataFileLocation(String fileName) {
      return current.location() + "/metadata/" + fileName;
    }

    @Override
    public LocationProvider locationProvider() {
      return LocationProviders.locationsFor(current.location(), current.properties());
    }
  }
}
