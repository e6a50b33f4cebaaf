package io.floe.application.service.repo;

import io.floe.application.iceberg.ForeignTableFileException;
import io.floe.application.iceberg.MetadataFiles;
import io.floe.application.iceberg.ReachableTableFiles;
import io.floe.application.model.AuditAction;
import io.floe.application.model.AuditTarget;
import io.floe.application.model.AuditedChange;
import io.floe.application.model.RepoGarbage;
import io.floe.application.port.in.repo.CollectRepoGarbageUseCase;
import io.floe.application.port.out.BucketStorage;
import io.floe.application.port.out.BucketStorageProvider;
import io.floe.application.port.out.ListedObject;
import io.floe.application.port.out.RepoReachability;
import io.floe.application.port.out.StorageException;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.application.service.catalog.TablePlacement;
import io.floe.application.service.change.ChangePublisher;
import io.floe.domain.BucketConfig;
import io.floe.domain.DurationBounds;
import io.floe.domain.Repo;
import io.floe.domain.StoragePath;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Collects a repo's garbage in three steps: mark (the Icechunk walk over every branch and tag,
 * then every table version their commits point at, followed with iceberg-core's readers into the
 * tables' files), list (what the prefix stores, after the marking), sweep (the unreachable
 * objects last written before the grace period began, unless it is a dry run).
 *
 * <p>The grace period is measured from the moment the collection starts, so an object a writer
 * stores while the walk runs is always young. Only Icechunk's own objects and the files under the
 * repo's {@value TablePlacement#REPO_TABLES} directory are judged; anything else under the prefix
 * (the prefix claim's marker, another tool's files) is left alone.
 */
public final class RepoGarbageCollectionService implements CollectRepoGarbageUseCase {
  static final String TABLE_FILE = "table_file";

  private final OrgRepos orgRepos;
  private final AccessPolicy policy;
  private final RepoReachability reachability;
  private final MetadataFiles metadataFiles;
  private final BucketStorageProvider storage;
  private final ChangePublisher publisher;
  private final Clock clock;

  public RepoGarbageCollectionService(OrgRepos orgRepos, AccessPolicy policy,
      RepoReachability reachability, MetadataFiles metadataFiles, BucketStorageProvider storage,
      ChangePublisher publisher, Clock clock) {
    this.orgRepos = orgRepos;
    this.policy = policy;
    this.reachability = reachability;
    this.metadataFiles = metadataFiles;
    this.storage = storage;
    this.publisher = publisher;
    this.clock = clock;
  }

  @Override
  public RepoGarbage collect(OrgContext context, String repo, Collection collection) {
    DurationBounds.require(collection.grace(), "The grace period");
    policy.requireAdmin(context, "collect a repo's garbage");
    Repo found = orgRepos.requireLive(context, repo);
    if (!collection.dryRun()) {
      Optional<ChangePublisher.Replay<RepoGarbage>> replay =
          publisher.replay(context, RepoGarbage.class);
      if (replay.isPresent()) {
        return replay.get().result();
      }
    }
    Instant olderThan = clock.instant().minus(collection.grace());
    BucketConfig bucket = orgRepos.bucketOf(found);
    StoragePath prefix = found.location().path();
    List<RepoGarbage.Item> unreachable = unreachable(bucket, prefix);
    List<RepoGarbage.Item> old = unreachable.stream()
        .filter(item -> item.lastModified().isBefore(olderThan)).toList();
    List<RepoGarbage.Item> young = unreachable.stream()
        .filter(item -> !item.lastModified().isBefore(olderThan)).toList();
    RepoGarbage garbage = new RepoGarbage(found.name().value(), collection.dryRun(),
        collection.grace().toSeconds(), olderThan, old, bytes(old), young.size(), bytes(young));
    if (collection.dryRun()) {
      return garbage;
    }
    BucketStorage objects = storage.open(bucket);
    for (RepoGarbage.Item item : old) {
      objects.delete(prefix.resolve(item.key()));
    }
    return publisher.publish(context, AuditedChange.of(AuditAction.REPO_GC,
        AuditTarget.Kind.REPO, found.name()).with("deleted_objects", old.size())
        .with("deleted_bytes", garbage.totalBytes()), garbage, () -> { });
  }

  /** Marks, then lists: every object under the prefix that nothing reaches, keyed under it. */
  private List<RepoGarbage.Item> unreachable(BucketConfig bucket, StoragePath prefix) {
    RepoReachability.Walk walk = reachability.walk(bucket, prefix);
    StoragePath tables = prefix.resolve(TablePlacement.REPO_TABLES);
    Set<String> tableFiles = new HashSet<>();
    try {
      // Each table's files are followed with a FileIO confined to that table's own directory:
      // a version naming a file of another table (or outside the repo) fails the collection.
      for (Map.Entry<String, List<String>> table
          : byTableRoot(bucket, tables, walk.tableMetadataLocations()).entrySet()) {
        tableFiles.addAll(ReachableTableFiles.of(metadataFiles.tableIo(bucket, table.getKey()),
            metadataFiles.limits(), table.getValue()));
      }
    } catch (ForeignTableFileException outside) {
      throw outside;
    } catch (RuntimeException e) {
      throw new StorageException("Cannot read the files of a table version the repo's history "
          + "points at, so nothing was collected: " + e.getMessage(), e);
    }
    ReachableKeys reachable = new ReachableKeys(bucket, tableFiles);
    List<RepoGarbage.Item> out = new ArrayList<>();
    for (RepoReachability.IcechunkObject object : walk.unreachable()) {
      out.add(item(prefix, object.object(), object.kind()));
    }
    for (ListedObject object : storage.open(bucket).listObjects(tables, Integer.MAX_VALUE)) {
      if (!reachable.contains(object.key())) {
        out.add(item(prefix, object, TABLE_FILE));
      }
    }
    return out;
  }

  /**
   * The metadata files of the repo's table versions, by the root of the table each belongs to:
   * the directory right under the repo's {@value TablePlacement#REPO_TABLES} directory that holds
   * it (where the server places every table a repo declares).
   */
  private static Map<String, List<String>> byTableRoot(BucketConfig bucket, StoragePath tables,
      Set<String> metadataLocations) {
    String tablesUri = bucket.uriOf(tables);
    Map<String, List<String>> byRoot = new TreeMap<>();
    for (String location : metadataLocations) {
      Optional<StoragePath> path = bucket.pathOf(location).filter(p -> p.isWithin(tables)
          && !p.equals(tables));
      if (path.isEmpty()) {
        throw new ForeignTableFileException(location, tablesUri);
      }
      String below = path.get().value().substring(tables.value().length() + 1);
      String root = bucket.uriOf(tables.resolve(below.substring(0, below.indexOf('/') < 0
          ? below.length() : below.indexOf('/'))));
      byRoot.computeIfAbsent(root, unused -> new ArrayList<>()).add(location);
    }
    return byRoot;
  }

  private static RepoGarbage.Item item(StoragePath prefix, ListedObject object, String kind) {
    String key = prefix.isRoot() ? object.key().value()
        : object.key().value().substring(prefix.value().length() + 1);
    return new RepoGarbage.Item(key, kind, object.sizeBytes(), object.lastModified());
  }

  private static long bytes(List<RepoGarbage.Item> items) {
    return items.stream().mapToLong(RepoGarbage.Item::sizeBytes).sum();
  }
}
