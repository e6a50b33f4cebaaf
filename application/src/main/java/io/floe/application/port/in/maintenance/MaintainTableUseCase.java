package io.floe.application.port.in.maintenance;

import io.floe.application.model.MaintenanceLimits;
import io.floe.application.model.TableMaintenance;
import io.floe.application.security.OrgContext;
import io.floe.domain.DurationBounds;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * Maintains one table now, in this process: compacts its small data files, expires old
 * snapshots, rewrites its manifests and removes files nothing references, each step only when
 * asked for. Every change is committed like any client's, so it validates against concurrent
 * writers; a dry run only reports what would happen. Needs write access to the table.
 */
public interface MaintainTableUseCase {
  /** Iceberg's own orphan-file removal waits as long by default. */
  Duration DEFAULT_ORPHAN_GRACE = Duration.ofDays(3);
  /** Iceberg's default target size of a data file ({@code write.target-file-size-bytes}). */
  long DEFAULT_TARGET_FILE_SIZE = 512L * 1024 * 1024;
  /** Fewer files than this in a partition are left as they are. */
  int DEFAULT_MIN_INPUT_FILES = 2;
  long MIN_TARGET_FILE_SIZE = MaintenanceLimits.MIN_TARGET_FILE_SIZE;
  long MAX_TARGET_FILE_SIZE = MaintenanceLimits.MAX_TARGET_FILE_SIZE;
  int MAX_RETAIN_LAST = MaintenanceLimits.MAX_RETAIN_LAST;

  /** Bin-pack the data files smaller than {@code targetFileSizeBytes}. */
  record Compaction(long targetFileSizeBytes, int minInputFiles) {
    public Compaction {
      if (targetFileSizeBytes < MIN_TARGET_FILE_SIZE || targetFileSizeBytes > MAX_TARGET_FILE_SIZE) {
        throw new BadRequestException("The target file size must be from "
            + MIN_TARGET_FILE_SIZE + " to " + MAX_TARGET_FILE_SIZE + " bytes");
      }
      if (minInputFiles < MaintenanceLimits.MIN_INPUT_FILES
          || minInputFiles > MaintenanceLimits.MAX_MIN_INPUT_FILES) {
        throw new BadRequestException("The minimum number of input files must be from "
            + MaintenanceLimits.MIN_INPUT_FILES + " to " + MaintenanceLimits.MAX_MIN_INPUT_FILES);
      }
    }
  }

  /** Expire snapshots older than {@code olderThan}, keeping at least {@code retainLast}. */
  record Expiry(Duration olderThan, int retainLast) {
    public Expiry {
      DurationBounds.require(olderThan, "The snapshot age");
      if (retainLast < 1 || retainLast > MAX_RETAIN_LAST) {
        throw new BadRequestException("retain_last must be from 1 to " + MAX_RETAIN_LAST);
      }
    }
  }

  /** Remove unreferenced files under the table last written more than {@code grace} ago. */
  record OrphanRemoval(Duration grace) {
    public OrphanRemoval {
      DurationBounds.require(grace, "The grace period");
    }
  }

  /** Rewrite the current snapshot's data manifests when it has at least {@code minManifests}. */
  record ManifestRewriting(int minManifests) {
    public static final ManifestRewriting ALWAYS = new ManifestRewriting(2);

    public ManifestRewriting {
      if (minManifests < 2 || minManifests > 100_001) {
        throw new BadRequestException("A manifest rewrite needs a threshold from 2 to 100001 "
            + "manifests");
      }
    }
  }

  /**
   * The steps to run, in this order: compact, expire, rewrite manifests, remove orphans. None at
   * all runs the table's maintenance policy (the nearest level's setting of each field).
   */
  record Steps(Optional<Compaction> compact, Optional<Expiry> expire,
      Optional<ManifestRewriting> rewriteManifests, Optional<OrphanRemoval> removeOrphans,
      boolean dryRun) {
    public Steps {
      Objects.requireNonNull(compact, "compact");
      Objects.requireNonNull(expire, "expire");
      Objects.requireNonNull(rewriteManifests, "rewriteManifests");
      Objects.requireNonNull(removeOrphans, "removeOrphans");
    }

    /** Whether no step is named. */
    public boolean isEmpty() {
      return compact.isEmpty() && expire.isEmpty() && rewriteManifests.isEmpty()
          && removeOrphans.isEmpty();
    }
  }

  TableMaintenance maintain(OrgContext context, TableIdentifier table, Steps steps);
}
