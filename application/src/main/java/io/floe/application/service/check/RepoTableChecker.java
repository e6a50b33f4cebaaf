package io.floe.application.service.check;

import io.floe.application.iceberg.MetadataFiles;
import io.floe.application.model.CheckCursor;
import io.floe.application.model.CheckFinding;
import io.floe.application.port.out.IcechunkRepositories;
import io.floe.application.port.out.OrgStore;
import io.floe.application.port.out.RepoStore;
import io.floe.domain.BucketConfig;
import io.floe.domain.Repo;
import io.floe.domain.RepoRefs;
import io.floe.domain.RepoTables;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Reads, at the head of every branch of every live repo, the pointers of the Iceberg tables the
 * branch declares (the icechest convention) and the metadata files they point at: a branch moved
 * (reset, or written by a client outside Floe) to a commit whose tables' files are gone, or that
 * declares a table without a pointer, is found here. One repo per step, in the order of their
 * names; the cursor ({@code at}) holds the name of the next repo.
 */
public final class RepoTableChecker implements CatalogChecker {
  private final RepoStore repos;
  private final OrgStore orgs;
  private final IcechunkRepositories icechunk;
  private final MetadataFileProbe probe;

  public RepoTableChecker(RepoStore repos, OrgStore orgs, IcechunkRepositories icechunk,
      MetadataFiles files) {
    this.repos = repos;
    this.orgs = orgs;
    this.icechunk = icechunk;
    this.probe = new MetadataFileProbe(files);
  }

  @Override
  public CheckCursor.Phase phase() {
    return CheckCursor.Phase.REPOS;
  }

  @Override
  public Optional<CheckCursor> check(UUID orgId, CheckCursor from, Budget budget,
      List<CheckFinding> findings) {
    List<Repo> live = repos.listLive(orgId).stream()
        .sorted(Comparator.comparing(repo -> repo.name().value())).toList();
    Optional<Repo> next = live.stream()
        .filter(repo -> repo.name().value().compareTo(from.at()) >= 0).findFirst();
    if (next.isEmpty()) {
      return Optional.empty();
    }
    Repo repo = next.get();
    budget.spend(1 + check(repo, findings));
    return live.stream().map(other -> other.name().value())
        .filter(name -> name.compareTo(repo.name().value()) > 0).findFirst()
        .map(name -> new CheckCursor(phase(), name, ""));
  }

  /** Checks every branch of the repo; how many tables it looked at. */
  private int check(Repo repo, List<CheckFinding> findings) {
    String name = repo.name().value();
    Optional<BucketConfig> bucket = orgs.bucket(repo.location().bucketId());
    if (bucket.isEmpty()) {
      findings.add(new CheckFinding(CheckFinding.Kind.METADATA_UNREADABLE, name,
          "the repo's bucket configuration is gone"));
      return 0;
    }
    int tables = 0;
    try {
      RepoRefs refs = icechunk.refs(bucket.get(), repo.location().path());
      for (RepoRefs.Pointer branch : refs.branches()) {
        String at = name + "@" + branch.name();
        RepoTables declared = icechunk.tables(bucket.get(), repo.location().path(),
            branch.name());
        declared.problems().forEach(problem -> findings.add(new CheckFinding(
            CheckFinding.Kind.METADATA_UNREADABLE, at, problem)));
        for (RepoTables.Table table : declared.tables()) {
          tables++;
          String subject = at + "." + table.name();
          if (table.metadataLocation().isEmpty()) {
            findings.add(new CheckFinding(CheckFinding.Kind.METADATA_MISSING, subject,
                "the branch's head declares the table without a pointer to a metadata file"));
          } else {
            probe.probe(subject, bucket.get(), table.metadataLocation().get(), false)
                .ifPresent(findings::add);
          }
        }
      }
    } catch (RuntimeException e) {
      findings.add(new CheckFinding(CheckFinding.Kind.METADATA_UNREADABLE, name,
          "the repo cannot be read: " + e.getMessage()));
    }
    return tables;
  }
}
