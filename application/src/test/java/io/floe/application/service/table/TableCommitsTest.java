package io.floe.application.service.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.iceberg.replay.ChangeReplay;
import io.floe.application.port.out.MetadataPointers;
import io.floe.application.port.out.UnitOfWork;
import io.floe.application.port.out.inmemory.NoStorageAccess;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.application.service.catalog.CatalogCommitter;
import io.floe.application.service.catalog.CatalogEntries;
import io.floe.application.service.catalog.CatalogLocator;
import io.floe.application.service.catalog.TablePlacement;
import io.floe.application.service.change.ChangePublisher;
import io.floe.application.service.lifecycle.PrefixClaimer;
import io.floe.application.service.storage.TableStorageAccess;
import io.floe.application.testbed.Testbed;
import io.floe.domain.Action;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import io.floe.domain.Role;
import io.floe.domain.Visibility;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.Schema;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.rest.requests.CommitTransactionRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.rest.responses.LoadTableResponse;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * Table commits on real Iceberg metadata: the client's requirements decide, on the state the
 * commit lands on; a requirement that fails is a conflict (409) and writes nothing; a lost race is
 * planned again; a transaction commits every table or none; every table is authorized before any
 * file is written.
 */
class TableCommitsTest {
  private final Testbed bed = new Testbed();
  /** Writers that commit to a table just before the next attempt publishes, as a race would. */
  private final Deque<Runnable> rivals = new ArrayDeque<>();
  private final UnitOfWork unitOfWork = new UnitOfWork() {
    @Override
    public <T> T inTransaction(Supplier<T> work) {
      if (!bed.store.unitOfWork().inTransaction() && !rivals.isEmpty()) {
        rivals.poll().run();
      }
      return bed.store.unitOfWork().inTransaction(work);
    }
  };
  private final ChangePublisher publisher = new ChangePublisher(bed.store.idempotency(),
      bed.store.audit(), bed.codec, unitOfWork, bed.clock, Testbed.KEY_LIFETIME);
  private final AccessPolicy policy = bed.policy();
  private final CatalogLocator locator = bed.locator();
  private final CatalogCommitter committer =
      new CatalogCommitter(bed.store.pointers(), unitOfWork, publisher, bed.clock);
  private final TableCommits commits = new TableCommits(locator, policy, bed.files, committer,
      publisher, new TableChanges(bed.files, new ChangeReplay()));
  private final TablePlacement placement = new TablePlacement(bed.store.orgs(),
      new PrefixClaimer(bed.store.orgs(), bed.store.claims(), bed.storage), bed.ids, bed.storage);
  private final CommitTableService commitTable = new CommitTableService(commits,
      new StagedTableCompletion(locator, policy, placement, bed.files,
          new CatalogEntries(bed.store.objects(), bed.clock), publisher, bed.ids,
          new RepoTableCreation(bed.repoNamespaces(), placement, bed.files, committer, publisher,
              new TableStorageAccess(NoStorageAccess.vendor(), NoStorageAccess.signer(), policy))));
  private final CommitTransactionService commitTransaction = new CommitTransactionService(commits);
  private final Namespace sales = bed.namespace("sales", Visibility.PRIVATE);
  private final CatalogObject orders = bed.table(sales, "orders");
  private final CatalogObject items = bed.table(sales, "items");

  private static TableIdentifier id(CatalogObject table) {
    return TableIdentifier.of("sales", table.name().value());
  }

  private TableMetadata current(CatalogObject table) {
    return bed.current(sales, table);
  }

  private UpdateTableRequest setProperty(CatalogObject table, String key,
      UpdateRequirement... requirements) {
    return UpdateTableRequest.create(id(table), List.of(requirements),
        List.of(new MetadataUpdate.SetProperties(Map.of(key, "set"))));
  }

  private UpdateRequirement sameTable(CatalogObject table) {
    return new UpdateRequirement.AssertTableUUID(current(table).uuid());
  }

  private LoadTableResponse commit(OrgContext context, UpdateTableRequest request) {
    return commitTable.commitTable(context, request.identifier(), request);
  }

  /** Before the next attempt publishes, another writer commits {@code change} to the table. */
  private void rivalCommits(CatalogObject table, UnaryOperator<TableMetadata> change) {
    rivals.add(() -> {
      TableMetadata base = current(table);
      TableMetadata written = bed.files.writeTable(bed.bucket, change.apply(base),
          Optional.of(base.metadataFileLocation()));
      assertThat(bed.store.pointers().swap(List.of(MetadataPointers.Move.of(
          new MetadataPointers.Row(table.id()), base.metadataFileLocation(),
          written.metadataFileLocation())), bed.clock.instant())).isTrue();
    });
  }

  private static UnaryOperator<TableMetadata> rivalProperty(String key) {
    return base -> TableMetadata.buildFrom(base).setProperties(Map.of(key, "rival")).build();
  }

  private static TableMetadata addColumn(TableMetadata base) {
    Schema wider = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()),
        Types.NestedField.optional(2, "note", Types.StringType.get()));
    return TableMetadata.buildFrom(base).setCurrentSchema(wider, 2).build();
  }

  @Test
  void aCommitAppliesItsUpdatesAndMovesThePointerToTheNextVersion() {
    String before = bed.pointer(sales, orders);
    LoadTableResponse response = commit(bed.admin, setProperty(orders, "owner",
        sameTable(orders)));
    assertThat(response.tableMetadata().properties()).containsEntry("owner", "set");
    assertThat(bed.pointer(sales, orders)).isEqualTo(response.metadataLocation())
        .isNotEqualTo(before).contains("/metadata/00001-");
    assertThat(current(orders).properties()).containsEntry("owner", "set");
  }

  @Test
  void aFailedRequirementIsAConflictThatWritesNothing() {
    String before = bed.pointer(sales, orders);
    List<String> written = bed.metadataIo.written();
    assertThatThrownBy(() -> commit(bed.admin, setProperty(orders, "owner",
        new UpdateRequirement.AssertTableUUID("00000000-0000-0000-0000-00000000dead"))))
        .isInstanceOf(CommitFailedException.class);
    assertThat(bed.metadataIo.written()).isEqualTo(written);
    assertThat(bed.pointer(sales, orders)).isEqualTo(before);
  }

  @Test
  void aLostRaceIsPlannedAgainOnTheWinnersMetadata() {
    rivalCommits(orders, rivalProperty("rival"));
    commit(bed.admin, setProperty(orders, "mine", sameTable(orders)));
    assertThat(current(orders).properties()).containsEntry("rival", "rival")
        .containsEntry("mine", "set");
    assertThat(bed.pointer(sales, orders)).contains("/metadata/00002-");
  }

  @Test
  void aLostRaceWhoseWinnerBrokeARequirementIsAConflict() {
    rivalCommits(orders, TableCommitsTest::addColumn);
    assertThatThrownBy(() -> commit(bed.admin, setProperty(orders, "mine",
        new UpdateRequirement.AssertCurrentSchemaID(0))))
        .isInstanceOf(CommitFailedException.class);
    assertThat(current(orders).schema().columns()).hasSize(2);
    assertThat(current(orders).properties()).doesNotContainKey("mine");
  }

  @Test
  void afterRepeatedLostRacesTheCommitWaitsItsTurnAndLands() {
    for (int i = 1; i <= 3; i++) {
      rivalCommits(orders, rivalProperty("rival-" + i));
    }
    commit(bed.admin, setProperty(orders, "mine", sameTable(orders)));
    assertThat(current(orders).properties())
        .containsKeys("rival-1", "rival-2", "rival-3", "mine");
  }

  @Test
  void aTransactionCommitsEveryTableOrNoneAndWritesNoFileWhenItsSecondChangeFails() {
    String ordersBefore = bed.pointer(sales, orders);
    String itemsBefore = bed.pointer(sales, items);
    List<String> written = bed.metadataIo.written();
    assertThatThrownBy(() -> commitTransaction.commitTransaction(bed.admin,
        new CommitTransactionRequest(List.of(
            setProperty(orders, "mine", sameTable(orders)),
            setProperty(items, "mine",
                new UpdateRequirement.AssertTableUUID("00000000-0000-0000-0000-00000000dead"))))))
        .isInstanceOf(CommitFailedException.class);
    assertThat(bed.pointer(sales, orders)).isEqualTo(ordersBefore);
    assertThat(bed.pointer(sales, items)).isEqualTo(itemsBefore);
    assertThat(bed.metadataIo.written()).isEqualTo(written);
  }

  @Test
  void aTransactionWhoseSecondTableLostItsRaceRollsTheFirstTableBackToo() {
    String ordersBefore = bed.pointer(sales, orders);
    // The rival commits to items between the plan and the swaps: orders' swap lands first and
    // must be undone when items' swap loses; then items' requirement fails on the new state.
    rivalCommits(items, TableCommitsTest::addColumn);
    assertThatThrownBy(() -> commitTransaction.commitTransaction(bed.admin,
        new CommitTransactionRequest(List.of(
            setProperty(orders, "mine", sameTable(orders)),
            setProperty(items, "mine", new UpdateRequirement.AssertCurrentSchemaID(0))))))
        .isInstanceOf(CommitFailedException.class);
    assertThat(bed.pointer(sales, orders)).isEqualTo(ordersBefore);
    assertThat(current(orders).properties()).doesNotContainKey("mine");
  }

  @Test
  void aTransactionWhoseThirdChangeIsRefusedWritesNoFile() {
    CatalogObject returns = bed.table(sales, "returns");
    List<String> written = bed.metadataIo.written();
    UpdateTableRequest outside = UpdateTableRequest.create(id(returns), List.of(),
        List.of(new MetadataUpdate.SetProperties(Map.of("write.data.path", "s3://data/other"))));
    assertThatThrownBy(() -> commitTransaction.commitTransaction(bed.admin,
        new CommitTransactionRequest(List.of(
            setProperty(orders, "mine", sameTable(orders)),
            setProperty(items, "mine", sameTable(items)),
            outside))))
        .isInstanceOf(ForbiddenException.class).hasMessageContaining("write.data.path");
    assertThat(bed.metadataIo.written()).isEqualTo(written);
    assertThat(current(orders).properties()).doesNotContainKey("mine");
    assertThat(current(items).properties()).doesNotContainKey("mine");
  }

  @Test
  void everyTableIsAuthorizedBeforeAnyFileIsWritten() {
    OrgContext member = bed.member("ada", Role.MEMBER);
    bed.grant(member.caller().principal().id(), sales, Optional.empty(), Action.READ);
    bed.grant(member.caller().principal().id(), sales, Optional.of(orders), Action.WRITE);
    List<String> written = bed.metadataIo.written();
    String ordersBefore = bed.pointer(sales, orders);

    assertThatThrownBy(() -> commitTransaction.commitTransaction(member,
        new CommitTransactionRequest(List.of(
            setProperty(orders, "mine", sameTable(orders)),
            setProperty(items, "mine", sameTable(items))))))
        .isInstanceOf(ForbiddenException.class).hasMessageContaining("items");
    assertThat(bed.metadataIo.written()).isEqualTo(written);
    assertThat(bed.pointer(sales, orders)).isEqualTo(ordersBefore);

    commit(member, setProperty(orders, "mine", sameTable(orders)));
    assertThat(current(orders).properties()).containsEntry("mine", "set");
  }

  @Test
  void aCommitRepeatedWithItsKeyGetsTheRecordedResultAndChangesNothing() {
    OrgContext keyed = Testbed.withKey(bed.admin, "key-1", "POST /sales/orders 9a8b");
    LoadTableResponse first = commit(keyed, setProperty(orders, "once", sameTable(orders)));
    String after = bed.pointer(sales, orders);
    List<String> written = bed.metadataIo.written();

    LoadTableResponse again = commit(keyed, setProperty(orders, "once", sameTable(orders)));

    assertThat(again.metadataLocation()).isEqualTo(first.metadataLocation());
    assertThat(bed.pointer(sales, orders)).isEqualTo(after);
    assertThat(bed.metadataIo.written()).isEqualTo(written);
  }
}
