package io.floe.application.service.repo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.floe.application.model.AuditEntry;
import io.floe.application.model.CreateRepoCommand;
import io.floe.application.model.DeleteCommand;
import io.floe.application.model.RepoDetails;
import io.floe.application.port.out.IcechunkRepositories;
import io.floe.application.port.out.LifecycleProbe;
import io.floe.application.security.OrgContext;
import io.floe.application.service.lifecycle.OrgNames;
import io.floe.application.service.lifecycle.PrefixClaimer;
import io.floe.application.service.lifecycle.SoftDeletion;
import io.floe.application.service.repo.objects.LocalRepoCredentials;
import io.floe.application.port.in.repo.OpenRepoUseCase.RepoAccess;
import io.floe.application.port.out.CredentialVendor.Access;
import io.floe.application.testbed.RecordingStorageAccess;
import io.floe.application.testbed.Testbed;
import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.StoragePlatform;
import io.floe.domain.CatalogName;
import io.floe.domain.RepoCommit;
import io.floe.domain.RepoNode;
import io.floe.domain.RepoRefs;
import io.floe.domain.RepoTables;
import io.floe.domain.Role;
import io.floe.domain.StoragePath;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.junit.jupiter.api.Test;

/**
 * Creating, finding, describing, deleting and restoring repos on the fakes: only admins use repos
 * (a member is refused with a 403 on the repos' own routes); a repo's name is the org's once; the
 * server initializes the Icechunk repository inside the crash-safe creation, and a creation that
 * fails there leaves no name, claim or row; a client-initialized repo's prefix stays empty; a
 * deleted repo is restorable until its recovery period ends on the clock; descriptions are
 * bounded and the audit log keeps whether one changed, never its text.
 */
class RepoServicesTest {
  private static final Duration RECOVERY = Duration.ofDays(7);

  private final Testbed bed = new Testbed();
  private final Repositories icechunk = new Repositories();
  private final OrgRepos orgRepos = new OrgRepos(bed.store.orgs(), bed.store.repos(),
      bed.policy());
  private final RepoLifecycleService lifecycle = new RepoLifecycleService(orgRepos,
      bed.store.orgs(), bed.store.repos(), bed.store.repoDeletes(),
      bed.prefixOwnerCreation(LifecycleProbe.NONE),
      new SoftDeletion(bed.store.names(), bed.clock, RECOVERY), new OrgNames(bed.store.names()),
      icechunk, bed.store.unitOfWork(), bed.ids, bed.clock, bed.policy(), bed.publisher());
  private final RepoDirectoryService directory = new RepoDirectoryService(orgRepos,
      bed.store.repos(), bed.policy(), bed.clock);
  private final RepoDescriptionService descriptions = new RepoDescriptionService(directory,
      bed.store.repos(), bed.publisher());
  private final RepoBrowsingService browsing = new RepoBrowsingService(orgRepos, icechunk);
  private final RecordingStorageAccess vendor = new RecordingStorageAccess(bed.clock, true, false);
  private final LocalRepoCredentials localCredentials =
      new LocalRepoCredentials(new byte[32], bed.clock, Duration.ofHours(1));
  private final RepoOpeningService opening = new RepoOpeningService(directory, vendor,
      localCredentials);
  private final OrgContext member = bed.member("member", Role.MEMBER);

  /** Icechunk repositories that write one file where a real one writes its first snapshot. */
  private final class Repositories implements IcechunkRepositories {
    final List<StoragePath> created = new ArrayList<>();
    final List<String> read = new ArrayList<>();
    RuntimeException failure;

    @Override
    public void create(BucketConfig bucket, StoragePath prefix, String markerName) {
      if (failure != null) {
        throw failure;
      }
      assertThat(markerName).isEqualTo(PrefixClaimer.MARKER);
      created.add(prefix);
      bed.storage.open(bucket).put(prefix.resolve("repo"),
          "icechunk".getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public RepoRefs refs(BucketConfig bucket, StoragePath prefix) {
      read.add("refs " + prefix);
      return new RepoRefs(List.of(new RepoRefs.Pointer("main", "SNAPSHOT1")), List.of());
    }

    @Override
    public List<RepoCommit> log(BucketConfig bucket, StoragePath prefix, String ref, int limit) {
      read.add("log " + prefix + " " + ref + " " + limit);
      return List.of();
    }

    @Override
    public RepoNode node(BucketConfig bucket, StoragePath prefix, String ref, String path) {
      throw new AssertionError("not read by these services");
    }

    @Override
    public RepoTables tables(BucketConfig bucket, StoragePath prefix, String ref) {
      throw new AssertionError("not read by these services");
    }
  }

  private RepoDetails create(String name, CreateRepoCommand.Initializer initializer) {
    return lifecycle.create(bed.admin, new CreateRepoCommand(new CatalogName(name),
        Optional.empty(), Optional.of("Weather arrays"), initializer));
  }

  private List<StoragePath> filesUnder(StoragePath prefix) {
    return bed.storage.open(bed.bucket).list(prefix, 100);
  }

  private List<AuditEntry> audit() {
    return bed.auditLog();
  }

  @Test
  void anAdminCreatesARepoTheServerInitializesUnderAFreshPrefixOfTheDefaultBucket() {
    RepoDetails created = create("weather", CreateRepoCommand.Initializer.SERVER);

    StoragePath prefix = created.repo().location().path();
    assertThat(created.bucket().id()).isEqualTo(bed.bucket.id());
    assertThat(created.locationUri()).isEqualTo(bed.bucket.uriOf(prefix));
    assertThat(created.repo().description()).contains("Weather arrays");
    assertThat(icechunk.created).containsExactly(prefix);
    assertThat(filesUnder(prefix)).contains(prefix.resolve(PrefixClaimer.MARKER),
        prefix.resolve("repo"));
    assertThat(bed.nameIsHeld("WEATHER")).isTrue();
    assertThat(directory.get(bed.admin, "weather").repo().id()).isEqualTo(created.repo().id());
    assertThat(directory.list(bed.admin)).extracting(details -> details.repo().name())
        .containsExactly(new CatalogName("weather"));
    assertThat(audit()).singleElement().satisfies(entry -> {
      assertThat(entry.action()).isEqualTo("repo.create");
      assertThat(entry.targetName()).isEqualTo("weather");
      assertThat(entry.details()).containsEntry("location", created.locationUri());
    });
  }

  @Test
  void aRepoTheClientInitializesGetsAnEmptyPrefix() {
    RepoDetails created = create("weather", CreateRepoCommand.Initializer.CLIENT);

    assertThat(icechunk.created).isEmpty();
    assertThat(filesUnder(created.repo().location().path())).isEmpty();
    assertThat(bed.store.claims().overlapping(bed.bucket.id(), created.repo().location().path()))
        .hasSize(1);
  }

  @Test
  void aNameIsTheOrgsOnceAndAnUnknownBucketIsRefused() {
    create("weather", CreateRepoCommand.Initializer.SERVER);

    assertThatThrownBy(() -> create("Weather", CreateRepoCommand.Initializer.SERVER))
        .isInstanceOf(AlreadyExistsException.class);
    assertThatThrownBy(() -> lifecycle.create(bed.admin, new CreateRepoCommand(
        new CatalogName("climate"), Optional.of(new CatalogName("nowhere")), Optional.empty(),
        CreateRepoCommand.Initializer.SERVER)))
        .isInstanceOf(BadRequestException.class).hasMessageContaining("nowhere");
    assertThat(icechunk.created).hasSize(1);
    assertThat(directory.list(bed.admin)).hasSize(1);
    assertThat(bed.nameIsHeld("climate")).isFalse();
  }

  @Test
  void aCreationThatFailsWhileInitializingLeavesNoNameClaimRowOrFile() {
    icechunk.failure = new IllegalStateException("storage went away");

    assertThatThrownBy(() -> create("weather", CreateRepoCommand.Initializer.SERVER))
        .hasMessageContaining("storage went away");

    assertThat(bed.nameIsHeld("weather")).isFalse();
    assertThat(directory.list(bed.admin)).isEmpty();
    assertThat(bed.store.claims().overlapping(bed.bucket.id(), StoragePath.root())).isEmpty();
    assertThat(bed.storage.open(bed.bucket).keys()).isEmpty();
    assertThat(audit()).isEmpty();
  }

  @Test
  void membersMayNotUseReposAtAll() {
    create("weather", CreateRepoCommand.Initializer.SERVER);

    assertThatThrownBy(() -> lifecycle.create(member, new CreateRepoCommand(
        new CatalogName("mine"), Optional.empty(), Optional.empty(),
        CreateRepoCommand.Initializer.SERVER))).isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> directory.get(member, "weather"))
        .isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> directory.list(member)).isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> directory.listDeleted(member))
        .isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> descriptions.describe(member, "weather", Optional.of("mine")))
        .isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> lifecycle.delete(member, "weather", DeleteCommand.SOFT))
        .isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> lifecycle.restore(member, "weather"))
        .isInstanceOf(ForbiddenException.class);
    assertThat(directory.get(bed.admin, "weather").repo().description())
        .contains("Weather arrays");
    assertThat(audit()).hasSize(1);
  }

  @Test
  void anUnknownRepoIsNotFoundAndAMalformedNameABadRequest() {
    assertThatThrownBy(() -> directory.get(bed.admin, "missing"))
        .isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> directory.get(bed.admin, "not a name!"))
        .isInstanceOf(BadRequestException.class);
    assertThatThrownBy(() -> lifecycle.delete(bed.admin, "missing", DeleteCommand.SOFT))
        .isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> lifecycle.restore(bed.admin, "missing"))
        .isInstanceOf(NotFoundException.class);
  }

  @Test
  void aDeletedRepoIsRestorableUntilItsRecoveryPeriodEnds() {
    RepoDetails created = create("weather", CreateRepoCommand.Initializer.SERVER);
    create("climate", CreateRepoCommand.Initializer.SERVER);

    lifecycle.delete(bed.admin, "weather", DeleteCommand.SOFT);
    lifecycle.delete(bed.admin, "climate", DeleteCommand.SOFT);

    assertThatThrownBy(() -> directory.get(bed.admin, "weather"))
        .isInstanceOf(NotFoundException.class);
    assertThat(bed.nameIsHeld("weather")).isTrue();
    assertThat(directory.listDeleted(bed.admin)).hasSize(2).allSatisfy(deleted -> assertThat(
        deleted.restorableUntil()).contains(bed.clock.instant().plus(RECOVERY)));
    bed.clock.advance(RECOVERY.minusMinutes(1));
    RepoDetails restored = lifecycle.restore(bed.admin, "weather");

    assertThat(restored.repo().id()).isEqualTo(created.repo().id());
    assertThat(restored.repo().deletedAt()).isEmpty();
    assertThat(directory.get(bed.admin, "weather").repo().location())
        .isEqualTo(created.repo().location());
    bed.clock.advance(Duration.ofMinutes(2));
    assertThatThrownBy(() -> lifecycle.restore(bed.admin, "climate"))
        .isInstanceOf(NotFoundException.class);
    assertThat(directory.listDeleted(bed.admin)).isEmpty();
    assertThat(audit()).extracting(AuditEntry::action).containsExactly("repo.create",
        "repo.create", "repo.delete", "repo.delete", "repo.restore");
  }

  @Test
  void aRepoDeletedAtOnceFreesItsNameAndCannotBeRestored() {
    create("weather", CreateRepoCommand.Initializer.SERVER);

    lifecycle.delete(bed.admin, "weather", new DeleteCommand(true, false));

    assertThat(bed.nameIsHeld("weather")).isFalse();
    assertThatThrownBy(() -> lifecycle.restore(bed.admin, "weather"))
        .isInstanceOf(NotFoundException.class);
    assertThat(audit().get(1).details()).containsEntry("immediate", true);
  }

  @Test
  void aDescriptionIsRewrittenOrClearedWithinItsLimitAndTheLogKeepsNoText() {
    create("weather", CreateRepoCommand.Initializer.SERVER);

    RepoDetails described = descriptions.describe(bed.admin, "weather",
        Optional.of("Hourly temperature grids"));
    assertThat(described.repo().description()).contains("Hourly temperature grids");
    assertThat(directory.get(bed.admin, "weather").repo().description())
        .contains("Hourly temperature grids");
    RepoDetails cleared = descriptions.describe(bed.admin, "weather", Optional.empty());
    assertThat(cleared.repo().description()).isEmpty();
    assertThatThrownBy(() -> descriptions.describe(bed.admin, "weather",
        Optional.of("x".repeat(CreateRepoCommand.MAX_DESCRIPTION_LENGTH + 1))))
        .isInstanceOf(BadRequestException.class);

    assertThat(directory.get(bed.admin, "weather").repo().description()).isEmpty();
    assertThat(audit()).extracting(AuditEntry::action)
        .containsExactly("repo.create", "repo.update", "repo.update");
    assertThat(audit().get(1).details()).containsEntry("description", "changed");
    assertThat(audit().get(2).details()).containsEntry("description", "cleared");
    assertThat(audit().toString()).doesNotContain("Hourly temperature grids");
  }

  @Test
  void anAdminOpensARepoWithReadWriteCredentialsForItsPrefixOnly() {
    RepoDetails created = create("weather", CreateRepoCommand.Initializer.SERVER);

    RepoAccess opened = opening.open(bed.admin, "weather");

    assertThat(opened.repo().repo().id()).isEqualTo(created.repo().id());
    assertThat(opened.credentials()).containsEntry(RecordingStorageAccess.ACCESS,
        Access.READ_WRITE.name());
    assertThat(opened.expiresAt()).contains(bed.clock.instant().plus(Duration.ofHours(1)));
    assertThat(vendor.grants()).singleElement().satisfies(grant -> {
      assertThat(grant.location()).isEqualTo(created.repo().location().path());
      assertThat(grant.access()).isEqualTo(Access.READ_WRITE);
      assertThat(grant.requester()).isEqualTo("admin");
    });
    assertThatThrownBy(() -> opening.open(member, "weather"))
        .isInstanceOf(ForbiddenException.class);
    assertThat(vendor.grants()).hasSize(1);
  }

  @Test
  void aRepoOnALocalBucketOpensWithFloesOwnKeysForItsPrefix() {
    BucketConfig disk = new BucketConfig(bed.ids.newId(), bed.org.id(), new CatalogName("disk"),
        StoragePlatform.LOCAL, "/srv/buckets/acme", StoragePath.root(), Optional.empty(),
        Optional.empty(), false, BucketCredentials.none(), false);
    bed.store.orgs().insertBucket(disk);
    RepoDetails created = lifecycle.create(bed.admin, new CreateRepoCommand(
        new CatalogName("weather"), Optional.of(new CatalogName("disk")), Optional.empty(),
        CreateRepoCommand.Initializer.CLIENT));

    RepoAccess opened = opening.open(bed.admin, "weather");

    String keyId = opened.credentials().get("s3.access-key-id");
    assertThat(localCredentials.open(keyId)).hasValueSatisfying(grant -> {
      assertThat(grant.bucketId()).isEqualTo(disk.id());
      assertThat(grant.prefix()).isEqualTo(created.repo().location().path());
      assertThat(grant.access()).isEqualTo(Access.READ_WRITE);
      assertThat(grant.principalId()).isEqualTo(bed.admin.caller().principal().id());
    });
    assertThat(vendor.grants()).isEmpty();
  }

  @Test
  void browsingReadsTheReposOwnRepositoryAtMainUnlessARefIsNamed() {
    RepoDetails created = create("weather", CreateRepoCommand.Initializer.SERVER);
    StoragePath prefix = created.repo().location().path();

    assertThat(browsing.refs(bed.admin, "weather").branches())
        .extracting(RepoRefs.Pointer::name).containsExactly("main");
    browsing.log(bed.admin, "weather", null, 10);
    browsing.log(bed.admin, "weather", "dev", RepoBrowsingService.MAX_LOG_LIMIT);

    assertThat(icechunk.read).containsExactly("refs " + prefix, "log " + prefix + " main 10",
        "log " + prefix + " dev " + RepoBrowsingService.MAX_LOG_LIMIT);
    assertThatThrownBy(() -> browsing.log(bed.admin, "weather", "main", 0))
        .isInstanceOf(BadRequestException.class);
    assertThatThrownBy(() -> browsing.log(bed.admin, "weather", "main",
        RepoBrowsingService.MAX_LOG_LIMIT + 1)).isInstanceOf(BadRequestException.class);
    assertThatThrownBy(() -> browsing.refs(member, "weather"))
        .isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> browsing.refs(bed.admin, "missing"))
        .isInstanceOf(NotFoundException.class);
    assertThat(icechunk.read).hasSize(3);
  }
}
