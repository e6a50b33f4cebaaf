package io.floe.application.service.maintenance;

import io.floe.application.iceberg.ForeignTableFileException;
import io.floe.application.iceberg.MetadataFiles;
import io.floe.application.iceberg.ReachableTableFiles;
import io.floe.application.model.TableMaintenance;
import io.floe.application.port.in.maintenance.MaintainTableUseCase.OrphanRemoval;
import io.floe.application.port.out.BucketStorage;
import io.floe.application.port.out.BucketStorageProvider;
import io.floe.application.port.out.ListedObject;
import io.floe.application.port.out.StorageException;
import io.floe.application.service.catalog.ResolvedTable;
import io.floe.application.service.lifecycle.PrefixClaimer;
import io.floe.application.service.repo.ReachableKeys;
import io.floe.domain.DomainException;
import io.floe.domain.StoragePath;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Removes the files under a table's own directory that no metadata of the table references:
 * mark (every file the current {@code metadata.json} reaches, with the earlier versions its log
 * names, their manifest lists, manifests, data and delete files and statistics), then list (the
 * table's directory, through the bucket's storage), then sweep what is unreferenced and was last
 * written before the grace period began. The grace period is measured from the start, so a file
 * a writer stores while this runs, or is about to commit, is always young. Nothing outside the
 * table's directory is listed, so nothing outside it can be deleted; and the metadata is read
 * through the table's confined FileIO, so a manifest or manifest list outside the table fails the
 * run ({@code ForeignTableFileException}) before anything is removed. The grace period is never
 * under the server's {@link OrphanGraceFloor}, which outlasts every write access Floe hands out.
 */
final class OrphanFileRemoval {
  /** The most objects one run looks at; a larger table is judged a part at a time. */
  static final int MAX_LISTED = 200_000;

  private final MetadataFiles metadataFiles;
  private final BucketStorageProvider storage;
  private final Clock clock;
  private final OrphanGraceFloor floor;

  OrphanFileRemoval(MetadataFiles metadataFiles, BucketStorageProvider storage, Clock clock,
      OrphanGraceFloor floor) {
    this.metadataFiles = metadataFiles;
    this.storage = storage;
    this.clock = clock;
    this.floor = floor;
  }

  TableMaintenance.Orphans run(ResolvedTable table, OrphanRemoval settings, boolean dryRun) {
    // Callers refuse a shorter grace period; this keeps any path from going under the floor.
    Instant olderThan = clock.instant().minus(floor.atLeast(settings.grace()));
    Set<String> referenced;
    try {
      referenced = ReachableTableFiles.of(metadataFiles.tableIo(table.bucket(), table.rootUri()),
          metadataFiles.limits(), List.of(table.metadataLocation()));
    } catch (ForeignTableFileException outside) {
      // The metadata reaches into another table: the walk read nothing there, and removes nothing.
      throw outside;
    } catch (RuntimeException e) {
      throw new StorageException("Cannot read a file the table's metadata references, so no "
          + "orphan was removed: " + e.getMessage(), e);
    }
    ReachableKeys reachable = new ReachableKeys(table.bucket(), referenced);
    StoragePath root = table.path();
    BucketStorage objects = storage.open(table.bucket());
    List<ListedObject> listed = objects.listObjects(root, MAX_LISTED + 1);
    boolean truncated = listed.size() > MAX_LISTED;
    List<TableMaintenance.File> old = new ArrayList<>();
    List<StoragePath> oldKeys = new ArrayList<>();
    int young = 0;
    for (ListedObject object : listed.subList(0, Math.min(listed.size(), MAX_LISTED))) {
      if (reachable.contains(object.key()) || checksumOfReachable(reachable, object.key())
          || !object.key().isWithin(root) || object.key().equals(root)
          || object.key().value().endsWith("/" + PrefixClaimer.MARKER)) {
        continue;
      }
      if (object.lastModified().isBefore(olderThan)) {
        old.add(new TableMaintenance.File(relative(root, object.key()), object.sizeBytes(),
            object.lastModified()));
        oldKeys.add(object.key());
      } else {
        young++;
      }
    }
    long bytes = old.stream().mapToLong(TableMaintenance.File::sizeBytes).sum();
    if (!dryRun) {
      oldKeys.forEach(objects::delete);
    }
    String outcome = old.isEmpty() ? "nothing-to-do" : dryRun ? "dry-run" : "done";
    return new TableMaintenance.Orphans(outcome, olderThan, old, bytes, young, truncated);
  }

  /**
   * Whether {@code key} is the checksum Hadoop's local filesystem keeps beside a file it wrote
   * ({@code .name.crc} beside {@code name}), of a file that is referenced: it lives and dies with
   * that file.
   */
  private static boolean checksumOfReachable(ReachableKeys reachable, StoragePath key) {
    String value = key.value();
    int slash = value.lastIndexOf('/');
    String name = value.substring(slash + 1);
    if (!name.startsWith(".") || !name.endsWith(".crc") || name.length() <= 5) {
      return false;
    }
    String file = value.substring(0, slash + 1) + name.substring(1, name.length() - 4);
    try {
      return reachable.contains(new StoragePath(file));
    } catch (DomainException notAPath) {
      return false;
    }
  }

  private static String relative(StoragePath root, StoragePath key) {
    return root.isRoot() ? key.value() : key.value().substring(root.value().length() + 1);
  }
}
