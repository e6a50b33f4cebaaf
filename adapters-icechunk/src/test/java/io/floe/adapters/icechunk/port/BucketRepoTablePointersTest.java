package io.floe.adapters.icechunk.port;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.adapters.icechunk.engine.IcechunkRepository;
import io.floe.adapters.icechunk.engine.Ref;
import io.floe.adapters.icechunk.engine.TestArrays;
import io.floe.adapters.icechunk.engine.WritableSession;
import io.floe.adapters.icechunk.icechest.IcebergConvention;
import io.floe.adapters.icechunk.icechest.IcechestTables;
import io.floe.adapters.icechunk.icechest.TableCommitSession;
import io.floe.adapters.storage.local.LocalBucketStorage;
import io.floe.application.port.out.MalformedRepoException;
import io.floe.application.port.out.MetadataPointers;
import io.floe.application.port.out.MetadataPointers.BranchTable;
import io.floe.application.port.out.MetadataPointers.Key;
import io.floe.application.port.out.MetadataPointers.Move;
import io.floe.application.port.out.MetadataPointers.RepoBranch;
import io.floe.application.port.out.MetadataPointers.Row;
import io.floe.application.port.out.UnitOfWork;
import io.floe.application.port.out.contract.MetadataPointersContract;
import io.floe.application.port.out.inmemory.InMemoryPersistence;
import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.CatalogName;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pointer port's contract on a repo's branch (an Icechunk repository on a local bucket, the
 * branch locks of an in-memory database), and what only a branch does: a move lands on top of
 * what writers outside Floe committed meanwhile to arrays or other tables, loses to one that moved
 * its own table, and refuses a head that declares a table without a pointer.
 */
class BucketRepoTablePointersTest extends MetadataPointersContract {
  @TempDir
  Path dir;
  private final InMemoryPersistence database = new InMemoryPersistence();
  private BucketConfig bucket;
  private LocalBucketStorage storage;
  private BucketRepoTablePointers pointers;

  @BeforeEach
  void openBucket() {
    bucket = new BucketConfig(UUID.randomUUID(), UUID.randomUUID(), new CatalogName("default"),
        StoragePlatform.LOCAL, dir.toString(), StoragePath.root(), Optional.empty(),
        Optional.empty(), false, BucketCredentials.none(), true);
    storage = new LocalBucketStorage(dir);
    pointers = new BucketRepoTablePointers(b -> storage, database.repoCommitLocks(),
        database.unitOfWork());
  }

  @Override
  protected MetadataPointers pointers() {
    return pointers;
  }

  @Override
  protected UnitOfWork unitOfWork() {
    return database.unitOfWork();
  }

  @Override
  protected boolean declaresByMove() {
    return true;
  }

  @Override
  protected Home newHome() {
    return new RepoHome();
  }

  /** A repository of its own, whose branch main declares the home's tables. */
  private final class RepoHome implements Home {
    final StoragePath prefix = new StoragePath("repo-" + UUID.randomUUID());
    final IcechunkRepository repository =
        IcechunkRepository.create(BucketObjectStore.of(storage), prefix, Set.of());
    final RepoBranch main = new RepoBranch(UUID.randomUUID(), bucket, prefix, "main");

    @Override
    public Key table(String name, String pointer) {
      TableCommitSession session = TableCommitSession.open(repository, "main");
      session.createTable("/", name, location(name), pointer);
      session.commit("declare " + name, Map.of());
      return absent(name);
    }

    @Override
    public Key absent(String name) {
      return new BranchTable(main, name, location(name));
    }

    String location(String name) {
      return bucket.uriOf(prefix.resolve("tables").resolve(name));
    }
  }

  private boolean swap(Key key, String expected, String next) {
    return pointers.swap(List.of(Move.of(key, expected, next)), now);
  }

  @Test
  void aMoveLandsOnTopOfWhatOthersCommittedToArraysAndOtherTables() {
    RepoHome home = new RepoHome();
    Key mine = home.table("mine", "m0");
    home.table("theirs", "t0");
    TableCommitSession outside = TableCommitSession.open(home.repository, "main");
    outside.arrays().setMetadata("/temps", TestArrays.arrayJson("int32", new long[] {4},
        new long[] {2}, 0, false, null, null));
    outside.moveTable("theirs", "t1");
    outside.commit("python", Map.of());

    assertThat(swap(mine, "m0", "m1")).isTrue();

    var head = IcechestTables.read(home.repository,
        home.repository.resolve(Ref.branch("main")));
    assertThat(head.metadataLocation("mine")).isEqualTo("m1");
    assertThat(head.metadataLocation("theirs")).isEqualTo("t1");
    assertThat(home.repository.readonlySession(Ref.branch("main")).node("/temps")).isPresent();
    assertThat(home.repository.log(Ref.branch("main")).get(0).message())
        .isEqualTo("Iceberg commit to table mine through Floe");
  }

  @Test
  void aMoveLosesToAWriterOutsideFloeThatMovedItsTable() {
    RepoHome home = new RepoHome();
    Key mine = home.table("mine", "m0");
    TableCommitSession outside = TableCommitSession.open(home.repository, "main");
    outside.moveTable("mine", "python");
    outside.commit("python", Map.of());

    assertThat(swap(mine, "m0", "m1")).isFalse();
    assertThat(pointers.current(mine)).contains("python");
  }

  @Test
  void aTableDeclaredAtAnotherLocationIsNotTheOneTheMoverPlannedOn() {
    RepoHome home = new RepoHome();
    home.table("t", "v0");
    Key elsewhere = new BranchTable(home.main, "t", home.location("somewhere-else"));
    assertThat(swap(elsewhere, "v0", "v1")).isFalse();
    assertThat(pointers.current(elsewhere)).isEmpty();
  }

  @Test
  void aHeadThatDeclaresATableWithoutItsPointerRefusesEveryMoveAsMalformed() {
    RepoHome home = new RepoHome();
    Key table = home.table("t", "v0");
    WritableSession session = home.repository.writableSession("main");
    session.setAttributes("/", IcebergConvention.declare(session.attributes("/"), "orphan",
        home.location("orphan")));
    session.commit("declared without a pointer", Map.of(IcebergConvention.TABLE_VERSIONS_KEY,
        Map.of("t", "v0")), false);

    assertThatThrownBy(() -> swap(table, "v0", "v1")).isInstanceOf(MalformedRepoException.class)
        .hasMessageContaining("orphan");
    assertThat(pointers.current(table)).contains("v0");
  }

  @Test
  void oneCommitMovesTheTablesOfOneBranchOnly() {
    Key one = newHome().table("t", "v0");
    Key other = newHome().table("t", "v0");
    assertThatThrownBy(() -> pointers.swap(List.of(Move.of(one, "v0", "v1"),
        Move.of(other, "v0", "v1")), now)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> pointers.swap(List.of(Move.of(new Row(UUID.randomUUID()), "v0",
        "v1")), now)).isInstanceOf(IllegalArgumentException.class);
  }
}
