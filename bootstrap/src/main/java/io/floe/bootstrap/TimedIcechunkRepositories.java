package io.floe.bootstrap;

import io.floe.application.port.out.IcechunkRepositories;
import io.floe.domain.BucketConfig;
import io.floe.domain.RepoCommit;
import io.floe.domain.RepoNode;
import io.floe.domain.RepoRefs;
import io.floe.domain.RepoTables;
import io.floe.domain.StoragePath;
import io.micrometer.core.instrument.Timer;
import java.util.List;

/** Icechunk repositories whose commits (a new repository's first) are timed for metrics. */
final class TimedIcechunkRepositories implements IcechunkRepositories {
  private final IcechunkRepositories repositories;
  private final Timer commits;

  TimedIcechunkRepositories(IcechunkRepositories repositories, Timer commits) {
    this.repositories = repositories;
    this.commits = commits;
  }

  @Override
  public void create(BucketConfig bucket, StoragePath prefix, String markerName) {
    commits.record(() -> repositories.create(bucket, prefix, markerName));
  }

  @Override
  public RepoRefs refs(BucketConfig bucket, StoragePath prefix) {
    return repositories.refs(bucket, prefix);
  }

  @Override
  public List<RepoCommit> log(BucketConfig bucket, StoragePath prefix, String ref, int limit) {
    return repositories.log(bucket, prefix, ref, limit);
  }

  @Override
  public RepoNode node(BucketConfig bucket, StoragePath prefix, String ref, String path) {
    return repositories.node(bucket, prefix, ref, path);
  }

  @Override
  public RepoTables tables(BucketConfig bucket, StoragePath prefix, String ref) {
    return repositories.tables(bucket, prefix, ref);
  }
}
