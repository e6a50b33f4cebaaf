package io.floe.adapters.icechunk.port;

import static io.floe.adapters.icechunk.port.ApplicationErrors.translated;

import io.floe.adapters.icechunk.engine.IcechunkRepository;
import io.floe.adapters.icechunk.gc.ReachableObjects;
import io.floe.adapters.icechunk.gc.RepositoryReachability;
import io.floe.application.port.out.BucketStorageProvider;
import io.floe.application.port.out.ListedObject;
import io.floe.application.port.out.RepoReachability;
import io.floe.domain.BucketConfig;
import io.floe.domain.StoragePath;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@link RepoReachability} by {@link RepositoryReachability}: the walk comes first and the
 * listing after it, so an object a writer stores meanwhile is listed as young, never judged by a
 * walk that could not have seen it.
 */
public final class BucketRepoReachability implements RepoReachability {
  private final BucketStorageProvider storage;

  public BucketRepoReachability(BucketStorageProvider storage) {
    this.storage = storage;
  }

  @Override
  public Walk walk(BucketConfig bucket, StoragePath prefix) {
    return translated(() -> {
      IcechunkRepository repository =
          IcechunkRepository.open(BucketObjectStore.of(storage.open(bucket)), prefix);
      ReachableObjects reachable = RepositoryReachability.walk(repository);
      Set<String> pointers = new TreeSet<>();
      for (Map<String, String> tables : reachable.tablePointers().values()) {
        pointers.addAll(tables.values());
      }
      return new Walk(reachable.unreachable(RepositoryReachability.stored(repository)).stream()
          .map(o -> new IcechunkObject(new ListedObject(prefix.resolve(o.key()), o.sizeBytes(),
              o.lastModified()), o.kind().name().toLowerCase(Locale.ROOT)))
          .toList(), pointers);
    });
  }
}
