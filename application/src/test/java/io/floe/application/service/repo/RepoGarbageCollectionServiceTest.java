package io.floe.application.service.repo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.model.AuditEntry;
import io.floe.application.model.RepoGarbage;
import io.floe.application.port.in.repo.CollectRepoGarbageUseCase.Collection;
import io.floe.application.port.out.BucketStorage;
import io.floe.application.port.out.ListedObject;
import io.floe.application.port.out.RepoReachability;
import io.floe.application.security.OrgContext;
import io.floe.application.service.lifecycle.PrefixClaimer;
import io.floe.application.testbed.Testbed;
import io.floe.domain.CatalogName;
import io.floe.domain.DomainException;
import io.floe.domain.Repo;
import io.floe.domain.Role;
import io.floe.domain.StorageLocation;
import io.floe.domain.StoragePath;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.junit.jupiter.api.Test;

/**
 * A repo's garbage collection on the fakes, with a history walk that reports what a test says it
 * found and a clock that ages the objects: only Icechunk objects the walk finds unreachable and
 * table files no reachable table version names are judged, and only those written before the
 * grace period began are swept; a dry run deletes nothing and records nothing; a collection is
 * audited with what it took and replayed by its key; only admins collect.
 */
class RepoGarbageCollectionServiceTest {
  private static final Duration GRACE = Duration.ofDays(1);

  private final Testbed bed = new Testbed();
  private final BucketStorage files = bed.storage.open(bed.bucket);
  private final StoragePath prefix = new StoragePath("a1b2c3d4_weather");
  private final Repo repo = new Repo(bed.ids.newId(), bed.org.id(), new CatalogName("weather"),
      new StorageLocation(bed.bucket.id(), prefix), Optional.empty(), bed.clock.instant(),
      Optional.empty());
  private List<StoragePath> unreachableIcechunk = List.of();
  private Set<String> tableVersions = Set.of();
  private final RepoReachability reachability = (bucket, walked) -> {
    assertThat(walked).isEqualTo(prefix);
    return new RepoReachability.Walk(unreachableIcechunk.stream().filter(files::exists)
        .map(key -> new RepoReachability.IcechunkObject(listed(key), "snapshot")).toList(),
        tableVersions);
  };
  private final RepoGarbageCollectionService gc = new RepoGarbageCollectionService(
      new OrgRepos(bed.store.orgs(), bed.store.repos(), bed.policy()), bed.policy(),
      reachability, bed.files, bed.storage, bed.publisher(), bed.clock);

  RepoGarbageCollectionServiceTest() {
    bed.store.repos().insert(repo);
  }

  private StoragePath key(String relative) {
    return prefix.resolve(relative);
  }

  private void write(String relative) {
    files.put(key(relative), relative.getBytes(StandardCharsets.UTF_8));
  }

  private ListedObject listed(StoragePath key) {
    return files.listObjects(prefix, 100).stream().filter(object -> object.key().equals(key))
        .findFirst().orElseThrow();
  }

  private List<AuditEntry> audit() {
    return bed.auditLog();
  }

  /**
   * Two days ago: an unreachable snapshot, a dropped table file and a table version the history
   * still names (its metadata file stored beside its data); now: a snapshot and a table file
   * still within the grace period; and the prefix's marker, which is nobody's garbage.
   */
  private void storedOverTwoDays() {
    write(PrefixClaimer.MARKER);
    write("snapshots/OLD");
    write("tables/t-1/data/dropped.parquet");
    TableMetadata version = bed.files.writeTable(bed.bucket, TableMetadata.newTableMetadata(
        Testbed.SCHEMA, PartitionSpec.unpartitioned(), SortOrder.unsorted(),
        bed.bucket.uriOf(key("tables/t-1")), Map.of()), Optional.empty());
    files.put(bed.bucket.pathOf(version.metadataFileLocation()).orElseThrow(),
        "{}".getBytes(StandardCharsets.UTF_8));
    tableVersions = Set.of(version.metadataFileLocation());
    bed.clock.advance(Duration.ofDays(2));
    write("snapshots/NEW");
    write("tables/t-1/data/fresh.parquet");
    unreachableIcechunk = List.of(key("snapshots/OLD"), key("snapshots/NEW"));
  }

  @Test
  void aDryRunReportsWhatIsOldEnoughToGoAndDeletesNothing() {
    storedOverTwoDays();
    int stored = files.list(prefix, 100).size();

    RepoGarbage garbage = gc.collect(bed.admin, "weather", new Collection(true, GRACE));

    assertThat(garbage.dryRun()).isTrue();
    assertThat(garbage.objects()).extracting(RepoGarbage.Item::key)
        .containsExactlyInAnyOrder("snapshots/OLD", "tables/t-1/data/dropped.parquet");
    assertThat(garbage.objects()).extracting(RepoGarbage.Item::kind)
        .containsExactlyInAnyOrder("snapshot", RepoGarbageCollectionService.TABLE_FILE);
    assertThat(garbage.sparedYoung()).isEqualTo(2);
    assertThat(garbage.olderThan()).isEqualTo(bed.clock.instant().minus(GRACE));
    assertThat(files.list(prefix, 100)).hasSize(stored);
    assertThat(audit()).isEmpty();
  }

  @Test
  void aCollectionSweepsOnlyOldUnreachableObjectsAndIsAudited() {
    storedOverTwoDays();

    RepoGarbage garbage = gc.collect(bed.admin, "weather", new Collection(false, GRACE));

    assertThat(garbage.objects()).hasSize(2);
    assertThat(files.exists(key("snapshots/OLD"))).isFalse();
    assertThat(files.exists(key("tables/t-1/data/dropped.parquet"))).isFalse();
    assertThat(files.exists(key("snapshots/NEW"))).isTrue();
    assertThat(files.exists(key("tables/t-1/data/fresh.parquet"))).isTrue();
    assertThat(files.exists(key(PrefixClaimer.MARKER))).isTrue();
    assertThat(files.list(key("tables/t-1/metadata"), 10)).hasSize(1);
    assertThat(audit()).singleElement().satisfies(entry -> {
      assertThat(entry.action()).isEqualTo("repo.gc");
      assertThat(entry.targetName()).isEqualTo("weather");
      assertThat(entry.details()).containsEntry("deleted_objects", 2)
          .containsEntry("deleted_bytes", garbage.totalBytes());
    });
  }

  @Test
  void theSameCollectionSentAgainWithItsKeyIsReplayedAndTakesNothingMore() {
    storedOverTwoDays();
    OrgContext keyed = Testbed.withKey(bed.admin, "gc-1", "POST repos/weather/gc");
    Collection shortGrace = new Collection(false, Duration.ofMinutes(5));
    RepoGarbage first = gc.collect(keyed, "weather", shortGrace);
    // Within the key's lifetime, and late enough for the young objects to be old now.
    bed.clock.advance(Duration.ofMinutes(10));

    RepoGarbage again = gc.collect(keyed, "weather", shortGrace);

    assertThat(again.objects()).isEqualTo(first.objects());
    assertThat(files.exists(key("snapshots/NEW"))).isTrue();
    assertThat(files.exists(key("tables/t-1/data/fresh.parquet"))).isTrue();
    assertThat(audit()).hasSize(1);
    RepoGarbage another = gc.collect(bed.admin, "weather", shortGrace);
    assertThat(another.objects()).extracting(RepoGarbage.Item::key)
        .containsExactlyInAnyOrder("snapshots/NEW", "tables/t-1/data/fresh.parquet");
  }

  @Test
  void onlyAdminsCollectAnExistingReposGarbageWithinABoundedGracePeriod() {
    storedOverTwoDays();
    OrgContext member = bed.member("member", Role.MEMBER);

    assertThatThrownBy(() -> gc.collect(member, "weather", new Collection(false, GRACE)))
        .isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> gc.collect(bed.admin, "missing", new Collection(false, GRACE)))
        .isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> gc.collect(bed.admin, "weather",
        new Collection(false, Duration.ofSeconds(-1)))).isInstanceOf(DomainException.class);
    assertThat(files.exists(key("snapshots/OLD"))).isTrue();
    assertThat(audit()).isEmpty();
  }
}
