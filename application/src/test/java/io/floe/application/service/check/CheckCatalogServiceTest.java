package io.floe.application.service.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.model.CheckCursor;
import io.floe.application.model.CheckFinding;
import io.floe.application.model.CheckPage;
import io.floe.application.port.out.IcechunkRepositories;
import io.floe.application.testbed.Testbed;
import io.floe.domain.BucketConfig;
import io.floe.domain.CatalogName;
import io.floe.domain.Repo;
import io.floe.domain.RepoCommit;
import io.floe.domain.RepoNode;
import io.floe.domain.RepoRefs;
import io.floe.domain.RepoTables;
import io.floe.domain.StorageLocation;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import io.floe.domain.PrefixClaim;
import io.floe.domain.Role;
import io.floe.domain.StoragePath;
import io.floe.domain.Visibility;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.junit.jupiter.api.Test;

/**
 * {@code floe check} on the in-memory fakes: each planted inconsistency is found, a consistent
 * catalog is reported clean, and a check in small pages finds what one large page finds.
 */
class CheckCatalogServiceTest {
  private final Testbed bed = new Testbed();
  private final CheckCatalogService check = new CheckCatalogService(bed.policy(),
      new MetadataFileChecker(bed.store.namespaces(), bed.store.objects(), bed.store.orgs(),
          bed.files),
      new RepoTableChecker(bed.store.repos(), bed.store.orgs(), new BranchHeads(), bed.files),
      new PrefixClaimChecker(bed.store.orgs(), bed.store.claims(), bed.storage),
      new OverdueDeletionChecker(bed.store.namespaceDeletes(), bed.store.repoDeletes(),
          bed.clock));

  @Test
  void aConsistentCatalogIsClean() {
    Namespace sales = claimed("sales");
    bed.table(sales, "orders");
    bed.view(sales, "recent");
    store(sales.prefix().resolve("orders").resolve("data").resolve("part-0.parquet"));

    CheckPage page = check.check(bed.admin, CheckCursor.start(), 100);

    assertThat(page.findings()).isEmpty();
    assertThat(page.next()).isEmpty();
    assertThat(page.checked()).isGreaterThanOrEqualTo(2);
  }

  @Test
  void aTableWhoseMetadataFileWasDeletedIsFound() {
    Namespace sales = claimed("sales");
    bed.table(sales, "orders");
    CatalogObject lost = bed.table(sales, "lost");
    bed.metadataIo.fileIo(bed.bucket).deleteFile(lost.metadataLocation());

    assertThat(all(100)).singleElement().satisfies(finding -> {
      assertThat(finding.kind()).isEqualTo(CheckFinding.Kind.METADATA_MISSING);
      assertThat(finding.subject()).isEqualTo("sales.lost");
      assertThat(finding.detail()).contains(lost.metadataLocation());
    });
  }

  @Test
  void aTableWhoseMetadataFileCannotBeParsedIsFound() throws Exception {
    Namespace sales = claimed("sales");
    CatalogObject broken = bed.entry(sales, "broken", "s3://data/broken/00000-x.metadata.json");
    bed.metadataIo.fileIo(bed.bucket).newOutputFile(broken.metadataLocation()).create()
        .close();

    assertThat(all(100)).singleElement().satisfies(finding -> {
      assertThat(finding.kind()).isEqualTo(CheckFinding.Kind.METADATA_UNREADABLE);
      assertThat(finding.subject()).isEqualTo("sales.broken");
    });
  }

  @Test
  void aRepoBranchMovedToACommitWhoseTableFileIsGoneIsFound() {
    Repo weather = new Repo(bed.ids.newId(), bed.org.id(), new CatalogName("weather"),
        new StorageLocation(bed.bucket.id(), new StoragePath("r_weather")), Optional.empty(),
        bed.clock.instant(), Optional.empty());
    bed.store.repos().insert(weather);
    CatalogObject written = bed.table(claimed("sales"), "granules");
    heads.put("main", new RepoTables(List.of(new RepoTables.Table("granules", "/",
        "s3://data/r_weather/tables/granules", Optional.of(written.metadataLocation()))),
        List.of()));
    heads.put("dev", new RepoTables(List.of(new RepoTables.Table("granules", "/",
        "s3://data/r_weather/tables/granules",
        Optional.of("s3://data/r_weather/tables/granules/metadata/00007-gone.metadata.json")),
        new RepoTables.Table("stations", "/", "s3://data/r_weather/tables/stations",
            Optional.empty())), List.of()));

    assertThat(all(100)).extracting(CheckFinding::kind, CheckFinding::subject).containsExactly(
        org.assertj.core.groups.Tuple.tuple(CheckFinding.Kind.METADATA_MISSING,
            "weather@dev.granules"),
        org.assertj.core.groups.Tuple.tuple(CheckFinding.Kind.METADATA_MISSING,
            "weather@dev.stations"));
  }

  @Test
  void objectsUnderAPrefixNothingClaimsAreFound() {
    Namespace sales = claimed("sales");
    store(sales.prefix().resolve("orders").resolve("part-0.parquet"));
    store(new StoragePath("stray/a/part-0.parquet"));
    store(new StoragePath("stray/b/part-1.parquet"));

    assertThat(all(100)).singleElement().satisfies(finding -> {
      assertThat(finding.kind()).isEqualTo(CheckFinding.Kind.UNCLAIMED_PREFIX);
      assertThat(finding.subject()).isEqualTo("main:stray");
      assertThat(finding.detail()).startsWith("2 object(s)").contains("stray/a/part-0.parquet");
    });
  }

  @Test
  void aSoftDeletedNamespaceIsReportedOnlyOnceItsRecoveryPeriodIsLongPast() {
    Namespace gone = claimed("gone");
    bed.store.namespaceDeletes().markDeleted(gone.id(), bed.clock.instant(),
        bed.clock.instant().plus(Duration.ofDays(7)), false, false);

    bed.clock.advance(Duration.ofDays(7));
    List<CheckFinding> withinGrace = all(100);
    bed.clock.advance(OverdueDeletionChecker.GRACE.plusMinutes(1));
    List<CheckFinding> overdue = all(100);

    assertThat(withinGrace).isEmpty();
    assertThat(overdue).singleElement().satisfies(finding -> {
      assertThat(finding.kind()).isEqualTo(CheckFinding.Kind.OVERDUE_DELETION);
      assertThat(finding.subject()).isEqualTo("namespace " + gone.id());
    });
  }

  @Test
  void smallPagesFindWhatOneLargePageFinds() {
    for (String name : List.of("a", "b", "c")) {
      Namespace namespace = claimed(name);
      for (int i = 0; i < 3; i++) {
        CatalogObject table = bed.table(namespace, "t" + i);
        if (i == 1) {
          bed.metadataIo.fileIo(bed.bucket).deleteFile(table.metadataLocation());
        }
      }
      bed.view(namespace, "v");
    }
    store(new StoragePath("stray/part-0.parquet"));

    List<CheckFinding> paged = all(1);
    List<CheckFinding> whole = all(1000);

    assertThat(paged).containsExactlyElementsOf(whole);
    assertThat(whole).extracting(CheckFinding::subject)
        .containsExactly("a.t1", "b.t1", "c.t1", "main:stray");
  }

  @Test
  void aTokenFromAnotherPageResumesWhereItStopped() {
    Namespace sales = claimed("sales");
    bed.table(sales, "a");
    CatalogObject lost = bed.table(sales, "b");
    bed.metadataIo.fileIo(bed.bucket).deleteFile(lost.metadataLocation());

    CheckPage first = check.check(bed.admin, CheckCursor.start(), 1);
    CheckPage second = check.check(bed.admin,
        CheckCursor.decode(first.next().orElseThrow().encode()), 1);

    assertThat(first.findings()).isEmpty();
    assertThat(second.findings()).extracting(CheckFinding::subject).containsExactly("sales.b");
  }

  @Test
  void onlyAdminsMayCheck() {
    assertThatThrownBy(() -> check.check(bed.member("max", Role.MEMBER), CheckCursor.start(), 10))
        .isInstanceOf(ForbiddenException.class);
  }

  /** Every finding of a whole check, in pages of {@code limit}. */
  private List<CheckFinding> all(int limit) {
    List<CheckFinding> findings = new ArrayList<>();
    Optional<CheckCursor> cursor = Optional.of(CheckCursor.start());
    int pages = 0;
    while (cursor.isPresent()) {
      CheckPage page = check.check(bed.admin, cursor.get(), limit);
      findings.addAll(page.findings());
      cursor = page.next();
      assertThat(++pages).as("pages").isLessThan(1000);
    }
    return findings;
  }

  /** A namespace with its claim on the bucket, as creating one leaves it. */
  private Namespace claimed(String name) {
    Namespace namespace = bed.namespace(name, Visibility.PRIVATE);
    bed.store.claims().insert(new PrefixClaim(bed.bucket.id(), namespace.prefix(),
        new PrefixClaim.Owner(PrefixClaim.OwnerKind.NAMESPACE, namespace.id())));
    store(namespace.prefix().resolve(".floe-namespace"));
    return namespace;
  }

  /** The branches of every repo, each with the tables its head declares. */
  private final Map<String, RepoTables> heads = new LinkedHashMap<>();

  private final class BranchHeads implements IcechunkRepositories {
    @Override
    public void create(BucketConfig bucket, StoragePath prefix, String markerName) {
      throw new UnsupportedOperationException();
    }

    @Override
    public RepoRefs refs(BucketConfig bucket, StoragePath prefix) {
      return new RepoRefs(heads.keySet().stream().map(name -> new RepoRefs.Pointer(name, "S" + name))
          .toList(), List.of());
    }

    @Override
    public List<RepoCommit> log(BucketConfig bucket, StoragePath prefix, String ref, int limit) {
      throw new UnsupportedOperationException();
    }

    @Override
    public RepoNode node(BucketConfig bucket, StoragePath prefix, String ref, String path) {
      throw new UnsupportedOperationException();
    }

    @Override
    public RepoTables tables(BucketConfig bucket, StoragePath prefix, String ref) {
      return heads.get(ref);
    }
  }

  private void store(StoragePath key) {
    bed.storage.open(bed.bucket).put(key, "x".getBytes(StandardCharsets.UTF_8));
  }
}
