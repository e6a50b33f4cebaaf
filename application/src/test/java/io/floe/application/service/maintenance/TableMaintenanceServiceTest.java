package io.floe.application.service.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.iceberg.ForeignTableFileException;
import io.floe.application.iceberg.replay.ChangeReplay;
import io.floe.application.model.AuditEntry;
import io.floe.application.model.MaintenancePolicy;
import io.floe.application.model.TableMaintenance;
import io.floe.application.port.in.maintenance.MaintainTableUseCase;
import io.floe.application.port.in.maintenance.MaintainTableUseCase.Compaction;
import io.floe.application.port.in.maintenance.MaintainTableUseCase.Expiry;
import io.floe.application.port.in.maintenance.MaintainTableUseCase.OrphanRemoval;
import io.floe.application.port.in.maintenance.MaintainTableUseCase.Steps;
import io.floe.application.port.out.MaintenanceEvents;
import io.floe.application.port.out.MaintenancePolicyStore;
import io.floe.application.port.out.MetadataPointers;
import io.floe.application.port.out.inmemory.InMemoryMaintenancePolicyStore;
import io.floe.application.security.OrgContext;
import io.floe.application.service.catalog.CatalogCommitter;
import io.floe.application.service.table.CommitTableService;
import io.floe.application.service.table.RepoTableCreation;
import io.floe.application.service.table.StagedTableCompletion;
import io.floe.application.service.table.TableChanges;
import io.floe.application.service.table.TableCommits;
import io.floe.application.testbed.Testbed;
import io.floe.domain.Action;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import io.floe.domain.Role;
import io.floe.domain.Visibility;
import io.floe.domain.StoragePath;
import io.floe.application.port.in.maintenance.MaintainTableUseCase;
import io.floe.application.service.catalog.ResolvedObject;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestWriter;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotParser;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.junit.jupiter.api.Test;

/**
 * Maintaining a table by hand on the fakes: only writers of the table may (a reader is refused, a
 * stranger told there is no such table); a run that names no step runs what the table's policy
 * turns on, or is refused when none does; a dry run reports which snapshots would expire and
 * changes, records and counts nothing; a run is audited once with what each step did.
 */
class TableMaintenanceServiceTest {
  private final Testbed bed = new Testbed();
  private final InMemoryMaintenancePolicyStore policies = new InMemoryMaintenancePolicyStore();
  private final AtomicInteger ran = new AtomicInteger();
  private final AtomicInteger failed = new AtomicInteger();
  private final TableMaintenanceService maintenance = new TableMaintenanceService(bed.locator(),
      bed.policy(), bed.files, commits(), bed.publisher(), (table, files, size) -> {
        throw new AssertionError("no compaction is asked for here");
      }, bed.storage, new MaintenanceEvents() {
        @Override
        public void ran() {
          ran.incrementAndGet();
        }

        @Override
        public void failed() {
          failed.incrementAndGet();
        }
      }, new PolicyLevels(bed.locator(), bed.policy(), policies), bed.clock);
  private final Namespace sales = bed.namespace("sales", Visibility.PRIVATE);
  private final CatalogObject orders = bed.table(sales, "orders");
  private final TableIdentifier ordersId = TableIdentifier.of("sales", "orders");
  private final OrgContext reader = bed.member("reader", Role.MEMBER);
  private final OrgContext writer = bed.member("writer", Role.MEMBER);

  TableMaintenanceServiceTest() {
    bed.grant(reader.caller().principal().id(), sales, Optional.empty(), Action.READ);
    bed.grant(writer.caller().principal().id(), sales, Optional.empty(), Action.WRITE);
  }

  /** Commits as clients' do, through the one committer. */
  private CommitTableService commits() {
    CatalogCommitter committer = bed.committer();
    TableCommits commits = new TableCommits(bed.locator(), bed.policy(), bed.files, committer,
        bed.publisher(), new TableChanges(bed.files, new ChangeReplay()));
    return new CommitTableService(commits, new StagedTableCompletion(bed.locator(), bed.policy(),
        bed.placement(), bed.files, bed.entries(), bed.publisher(), bed.ids,
        new RepoTableCreation(bed.repoNamespaces(), bed.placement(), bed.files, committer,
            bed.publisher(), bed.storageAccess())));
  }

  private static Steps expiring(Duration olderThan, boolean dryRun) {
    return new Steps(Optional.empty(), Optional.of(new Expiry(olderThan, 1)), Optional.empty(),
        Optional.empty(), dryRun);
  }

  private static Steps none() {
    return new Steps(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
        false);
  }

  private List<AuditEntry> audit() {
    return bed.auditLog();
  }

  /**
   * Two appends, a minute apart, the second a minute before the table's last update (Iceberg
   * refuses snapshots from the future); the second is the table's current snapshot.
   */
  private Instant twoSnapshots() {
    TableMetadata base = bed.current(sales, orders);
    long first = base.lastUpdatedMillis() - 120_000;
    TableMetadata appended = TableMetadata.buildFrom(base)
        .setBranchSnapshot(snapshot(base, 1, null, first), "main").build();
    TableMetadata next = TableMetadata.buildFrom(appended)
        .setBranchSnapshot(snapshot(base, 2, 1L, first + 60_000), "main").build();
    TableMetadata written = bed.files.writeTable(bed.bucket, next,
        Optional.of(base.metadataFileLocation()));
    assertThat(bed.store.pointers().swap(List.of(MetadataPointers.Move.of(
        new MetadataPointers.Row(orders.id()), base.metadataFileLocation(),
        written.metadataFileLocation())), bed.clock.instant())).isTrue();
    return Instant.ofEpochMilli(first + 60_000);
  }

  private static Snapshot snapshot(TableMetadata base, long id, Long parent, long at) {
    return SnapshotParser.fromJson("{\"snapshot-id\":" + id
        + (parent == null ? "" : ",\"parent-snapshot-id\":" + parent)
        + ",\"sequence-number\":" + id + ",\"timestamp-ms\":" + at
        + ",\"summary\":{\"operation\":\"append\"},\"manifest-list\":\"" + base.location()
        + "/metadata/snap-" + id + ".avro\",\"schema-id\":0}");
  }

  @Test
  void onlyWritersMaintainATableAndAStrangerIsToldThereIsNone() {
    OrgContext stranger = bed.member("stranger", Role.MEMBER);
    bed.view(sales, "daily");

    assertThatThrownBy(() -> maintenance.maintain(reader, ordersId,
        expiring(Duration.ofDays(1), false))).isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> maintenance.maintain(stranger, ordersId,
        expiring(Duration.ofDays(1), false))).isInstanceOf(NoSuchTableException.class);
    assertThatThrownBy(() -> maintenance.maintain(bed.admin, TableIdentifier.of("sales", "daily"),
        expiring(Duration.ofDays(1), false))).isInstanceOf(NoSuchTableException.class);
    assertThat(audit()).isEmpty();
    assertThat(ran.get() + failed.get()).isZero();
  }

  @Test
  void aRunThatNamesNoStepNeedsAPolicyAndThenRunsWhatThePolicyTurnsOn() {
    assertThatThrownBy(() -> maintenance.maintain(writer, ordersId, none()))
        .isInstanceOf(BadRequestException.class).hasMessageContaining("No maintenance step");

    policies.put(bed.org.id(), sales.id(), MaintenancePolicyStore.Scope.NAMESPACE,
        new MaintenancePolicy(Duration.ofDays(2).toSeconds(), null, null, null, null, null),
        bed.clock.instant());
    TableMaintenance report = maintenance.maintain(writer, ordersId, none());

    assertThat(report.compaction()).isNull();
    assertThat(report.orphans()).isNull();
    assertThat(report.expiry()).isNotNull().satisfies(expiry -> {
      assertThat(expiry.outcome()).isEqualTo("nothing-to-do");
      assertThat(expiry.olderThan()).isEqualTo(bed.clock.instant().minus(Duration.ofDays(2)));
      assertThat(expiry.retainLast()).isEqualTo(1);
    });
    assertThat(ran.get()).isEqualTo(1);
    assertThat(audit()).singleElement().satisfies(entry -> {
      assertThat(entry.action()).isEqualTo("table.maintain");
      assertThat(entry.principalName()).isEqualTo("writer");
      assertThat(entry.details()).containsEntry("expired_snapshots", 0);
    });
  }

  @Test
  void aDryRunSaysWhichSnapshotsWouldExpireAndChangesNothing() {
    Instant second = twoSnapshots();
    String pointer = bed.pointer(sales, orders);
    bed.clock.set(second.plus(Duration.ofDays(3)));

    TableMaintenance report = maintenance.maintain(writer, ordersId,
        expiring(Duration.ofDays(1), true));

    assertThat(report.dryRun()).isTrue();
    assertThat(report.expiry().outcome()).isEqualTo("dry-run");
    assertThat(report.expiry().expiredSnapshotIds()).containsExactly(1L);
    assertThat(report.expiry().remainingSnapshots()).isEqualTo(1);
    assertThat(bed.pointer(sales, orders)).isEqualTo(pointer);
    assertThat(audit()).isEmpty();
    assertThat(ran.get()).isZero();
  }

  @Test
  void snapshotsYoungerThanTheAgeStay() {
    Instant second = twoSnapshots();
    bed.clock.set(second.plus(Duration.ofHours(1)));

    TableMaintenance report = maintenance.maintain(writer, ordersId,
        expiring(Duration.ofDays(1), true));

    assertThat(report.expiry().outcome()).isEqualTo("nothing-to-do");
    assertThat(report.expiry().remainingSnapshots()).isEqualTo(2);
  }

  /** A data file entry of {@code location}, as a writer puts it into a manifest. */
  private static DataFile entry(Table table, String location) {
    return DataFiles.builder(table.spec()).withPath(location).withFormat(FileFormat.PARQUET)
        .withFileSizeInBytes(100).withRecordCount(1).build();
  }

  /** Stores a file of a few bytes at {@code location}, as a writer (or another table) would. */
  private void store(String location) throws IOException {
    bed.metadataIo.fileIo(bed.bucket).newOutputFile(location).createOrOverwrite().close();
  }

  /** The orders table as a writer's engine sees it, committing through the one committer. */
  private Table ordersAsWriter() {
    return new BaseTable(new CatalogTableOperations(writer, ordersId,
        bed.locator().table(writer, ordersId), bed.locator(), bed.files, commits()), "orders");
  }

  @Test
  void expiryDeletesTheTablesOwnFilesAndReportsAnotherTablesFileItWillNotDelete()
      throws IOException {
    String foreign = bed.current(sales, bed.table(sales, "customers")).location()
        + "/data/part-0.parquet";
    Table table = ordersAsWriter();
    String own = table.location() + "/data/own.parquet";
    store(foreign);
    store(own);
    table.newAppend().appendFile(entry(table, foreign)).appendFile(entry(table, own)).commit();
    table.newDelete().deleteFile(foreign).deleteFile(own).commit();
    // Files a snapshot deleted go when that snapshot expires: one more keeps the table current.
    table.newAppend().appendFile(entry(table, table.location() + "/data/later.parquet")).commit();
    bed.clock.set(Instant.now().plus(Duration.ofDays(1)));

    TableMaintenance report = maintenance.maintain(writer, ordersId,
        expiring(Duration.ZERO, false));

    assertThat(report.expiry().outcome()).isEqualTo("done");
    assertThat(report.expiry().refusedFiles()).containsExactly(foreign);
    assertThat(bed.metadataIo.exists(foreign)).isTrue();
    assertThat(bed.metadataIo.exists(own)).isFalse();
    assertThat(audit()).last().satisfies(entry -> assertThat(entry.details())
        .containsEntry("refused_foreign_files", 1));
  }

  @Test
  void compactionThatMeetsAnotherTablesFileFailsWithoutReadingItOrCommitting()
      throws IOException {
    String foreign = bed.current(sales, bed.table(sales, "customers")).location()
        + "/data/part-0.parquet";
    Table table = ordersAsWriter();
    String own = table.location() + "/data/own.parquet";
    store(foreign);
    store(own);
    table.newAppend().appendFile(entry(table, own)).appendFile(entry(table, foreign)).commit();
    String pointer = bed.pointer(sales, orders);
    List<String> read = new java.util.ArrayList<>();
    TableMaintenanceService compacting = new TableMaintenanceService(bed.locator(), bed.policy(),
        bed.files, commits(), bed.publisher(), (target, files, size) -> {
          files.forEach(task -> {
            target.io().newInputFile(task.file().location());
            read.add(task.file().location());
          });
          return List.of();
        }, bed.storage, new MaintenanceEvents() {
          @Override
          public void ran() {
            ran.incrementAndGet();
          }

          @Override
          public void failed() {
            failed.incrementAndGet();
          }
        }, new PolicyLevels(bed.locator(), bed.policy(), policies), bed.clock);

    assertThatThrownBy(() -> compacting.maintain(writer, ordersId, new Steps(
        Optional.of(new Compaction(MaintainTableUseCase.MIN_TARGET_FILE_SIZE, 2)),
        Optional.empty(), Optional.empty(), Optional.empty(), false)))
        .isInstanceOfSatisfying(ForeignTableFileException.class, refused -> {
          assertThat(refused.location()).isEqualTo(foreign);
          assertThat(refused.getMessage()).contains(foreign).contains(table.location());
        });
    assertThat(read).doesNotContain(foreign);
    assertThat(failed.get()).isEqualTo(1);
    assertThat(bed.pointer(sales, orders)).isEqualTo(pointer);
  }

  @Test
  void orphanRemovalThatMeetsAnotherTablesManifestFailsAndDeletesNothing() throws IOException {
    String customers = bed.current(sales, bed.table(sales, "customers")).location();
    String planted = customers + "/metadata/planted-m0.avro";
    Table table = ordersAsWriter();
    ManifestWriter<DataFile> manifest = ManifestFiles.write(2, table.spec(),
        bed.metadataIo.fileIo(bed.bucket).newOutputFile(planted), null);
    try (manifest) {
      manifest.add(entry(table, table.location() + "/data/own.parquet"));
    }
    table.newFastAppend().appendManifest(manifest.toManifestFile()).commit();
    bed.clock.set(Instant.now().plus(Duration.ofDays(30)));

    assertThatThrownBy(() -> maintenance.maintain(writer, ordersId, new Steps(Optional.empty(),
        Optional.empty(), Optional.empty(), Optional.of(new OrphanRemoval(Duration.ofDays(1))),
        false))).isInstanceOfSatisfying(ForeignTableFileException.class,
            refused -> assertThat(refused.location()).isEqualTo(planted));
    assertThat(bed.metadataIo.exists(planted)).isTrue();
    assertThat(failed.get()).isEqualTo(1);
  }

  private static Steps removingOrphans(Duration grace) {
    return new Steps(Optional.empty(), Optional.empty(), Optional.empty(),
        Optional.of(new MaintainTableUseCase.OrphanRemoval(grace)), false);
  }

  @Test
  void orphanRemovalNeverTakesAFileAWriterHasNotCommittedYet() {
    // A writer stores a data file it will commit later: unreferenced until then.
    StoragePath pending = orders.location().path().resolve("data")
        .resolve("pending-commit.parquet");
    bed.storage.open(bed.bucket).put(pending, new byte[] {1});

    for (Duration under : List.of(Duration.ZERO, Duration.ofHours(23))) {
      assertThatThrownBy(() -> maintenance.maintain(writer, ordersId, removingOrphans(under)))
          .isInstanceOf(BadRequestException.class)
          .hasMessageContaining("under this server's floor of 86400 seconds");
    }
    TableMaintenance atTheFloor = maintenance.maintain(writer, ordersId,
        removingOrphans(OrphanGraceFloor.MINIMUM));
    assertThat(atTheFloor.orphans().files()).isEmpty();
    assertThat(bed.storage.open(bed.bucket).exists(pending)).as("the writer's file").isTrue();

    // Once older than the floor, no write that can still commit holds it: it is an orphan.
    bed.clock.advance(OrphanGraceFloor.MINIMUM.plusMinutes(1));
    TableMaintenance later = maintenance.maintain(writer, ordersId,
        removingOrphans(OrphanGraceFloor.MINIMUM));
    assertThat(later.orphans().files()).extracting(TableMaintenance.File::key)
        .containsExactly("data/pending-commit.parquet");
    assertThat(bed.storage.open(bed.bucket).exists(pending)).isFalse();
  }

  @Test
  void aPolicySetUnderARaisedFloorRunsAtTheFloor() {
    OrphanGraceFloor raised = OrphanGraceFloor.of(Duration.ofDays(2), Duration.ofHours(1));
    PolicyLevels levels = new PolicyLevels(bed.locator(), bed.policy(), policies, raised);
    policies.put(bed.org.id(), sales.id(), MaintenancePolicyStore.Scope.NAMESPACE,
        new MaintenancePolicy(null, null, Duration.ofDays(1).toSeconds(), null, null, null),
        bed.clock.instant());
    ResolvedObject table = (ResolvedObject) bed.locator().table(bed.admin, ordersId);

    assertThat(levels.effectiveFor(table, bed.admin).orphanGraceSeconds())
        .isEqualTo(Duration.ofDays(2).toSeconds());
  }
}
