package io.floe.application.service.lifecycle;

import io.floe.application.port.out.BucketStorage;
import io.floe.application.port.out.BucketStorageProvider;
import io.floe.application.port.out.NameRegistry;
import io.floe.application.port.out.NamespaceLifecycleStore;
import io.floe.application.port.out.NamespaceStore;
import io.floe.application.port.out.OrgStore;
import io.floe.application.port.out.PrefixClaimStore;
import io.floe.domain.BucketConfig;
import io.floe.domain.Namespace;
import io.floe.domain.StorageLocation;
import io.floe.domain.StoragePath;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The namespaces' cleanup: the prefix is emptied except for the files of any table that still
 * lives in the catalog (one renamed into another namespace keeps its files here), and so are the
 * own prefixes of tables dropped from the namespace. A namespace under whose prefix a live table
 * or view still has files is kept.
 */
public final class NamespaceCleanupSteps implements CleanupSteps<Namespace> {
  private final NamespaceLifecycleStore lifecycle;
  private final NamespaceStore namespaces;
  private final NameRegistry names;
  private final PrefixClaimStore claims;
  private final OrgStore orgs;
  private final BucketStorageProvider storage;
  private final DroppedTablePrefixes droppedTables;

  public NamespaceCleanupSteps(NamespaceLifecycleStore lifecycle, NamespaceStore namespaces,
      NameRegistry names, PrefixClaimStore claims, OrgStore orgs, BucketStorageProvider storage,
      DroppedTablePrefixes droppedTables) {
    this.lifecycle = lifecycle;
    this.namespaces = namespaces;
    this.names = names;
    this.claims = claims;
    this.orgs = orgs;
    this.storage = storage;
    this.droppedTables = droppedTables;
  }

  @Override
  public String kind() {
    return "namespace";
  }

  @Override
  public UUID id(Namespace namespace) {
    return namespace.id();
  }

  @Override
  public String describe(Namespace namespace) {
    return namespace.name() + " at " + bucketOf(namespace).uriOf(namespace.prefix());
  }

  @Override
  public void releaseName(Namespace namespace) {
    names.release(namespace.orgId(), namespace.name());
  }

  /**
   * Deletes what lies under the prefix. Files of catalog objects that still live are kept, and
   * then so is the marker, since the prefix stays claimed for them.
   */
  @Override
  public long empty(Namespace namespace) {
    BucketConfig bucket = bucketOf(namespace);
    StorageLocation prefix = new StorageLocation(bucket.id(), namespace.prefix());
    BucketStorage files = storage.open(bucket);
    List<StorageLocation> live = lifecycle.objectsWithin(prefix);
    long removed = 0;
    if (live.isEmpty()) {
      removed = files.deleteUnder(prefix.path());
    } else {
      for (StoragePath key : files.list(prefix.path(), Integer.MAX_VALUE)) {
        boolean keep = key.equals(prefix.path().resolve(PrefixClaimer.MARKER))
            || live.stream().anyMatch(location -> key.isWithin(location.path()));
        if (!keep) {
          files.delete(key);
          removed++;
        }
      }
    }
    return removed + droppedTables.empty(namespace.id());
  }

  @Override
  public Optional<String> reasonToKeep(Namespace namespace) {
    List<StorageLocation> live = lifecycle.objectsWithin(
        new StorageLocation(namespace.bucketId(), namespace.prefix()));
    if (!live.isEmpty() || namespaces.hasObjects(namespace.id())) {
      return Optional.of(live.size() + " live table(s) or view(s) have files under the prefix");
    }
    return Optional.empty();
  }

  @Override
  public void releaseClaims(Namespace namespace) {
    claims.releaseAllOf(namespace.id());
    droppedTables.release(namespace.id());
  }

  private BucketConfig bucketOf(Namespace namespace) {
    return orgs.bucket(namespace.bucketId()).orElseThrow(() ->
        new IllegalStateException("bucket of namespace " + namespace.name() + " vanished"));
  }
}
