package io.floe.application.service.lifecycle;

import io.floe.application.port.out.BucketStorageProvider;
import io.floe.application.port.out.NameRegistry;
import io.floe.application.port.out.OrgStore;
import io.floe.application.port.out.PendingCreationStore;
import io.floe.application.port.out.PendingCreationStore.Pending;
import io.floe.application.port.out.PrefixClaimStore;
import io.floe.application.port.out.UnitOfWork;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Undoes creations that never finished: removes everything the creation wrote under its prefix
 * (the marker, a repo's Icechunk repository), then releases the claim and the name and drops the
 * journal row, in one transaction.
 */
public final class CreationRepair {
  private static final Logger LOG = LoggerFactory.getLogger(CreationRepair.class);
  private static final int BATCH = 100;

  private final PendingCreationStore pending;
  private final PrefixClaimStore claims;
  private final NameRegistry names;
  private final OrgStore orgs;
  private final BucketStorageProvider storage;
  private final UnitOfWork unitOfWork;

  public CreationRepair(PendingCreationStore pending, PrefixClaimStore claims, NameRegistry names,
      OrgStore orgs, BucketStorageProvider storage, UnitOfWork unitOfWork) {
    this.pending = pending;
    this.claims = claims;
    this.names = names;
    this.orgs = orgs;
    this.storage = storage;
    this.unitOfWork = unitOfWork;
  }

  /**
   * Undoes the creations started before {@code cutoff}; younger ones may still be in flight on
   * another server. Returns how many were undone.
   */
  public int repairStartedBefore(Instant cutoff) {
    return unitOfWork.inTransaction(() -> {
      int undone = 0;
      for (Pending creation : pending.lockStartedBefore(cutoff, BATCH)) {
        undo(creation);
        undone++;
        LOG.warn("undid the unfinished creation of {} {} (started {})",
            creation.kind().name().toLowerCase(java.util.Locale.ROOT), creation.name(),
            creation.startedAt());
      }
      return undone;
    });
  }

  /** Undoes a creation that just failed; if even that fails, the repair pass finishes it later. */
  public void undoQuietly(Pending creation, RuntimeException cause) {
    try {
      unitOfWork.inTransaction(() -> {
        // Absent when a repair pass got there first.
        pending.lock(creation.ownerId()).ifPresent(this::undo);
      });
    } catch (RuntimeException e) {
      cause.addSuppressed(e);
    }
  }

  private void undo(Pending creation) {
    // Everything under the prefix is the creation's own: the prefix was empty when it was
    // claimed, and nothing else can write there before the owner exists.
    orgs.bucket(creation.bucketId())
        .ifPresent(bucket -> storage.open(bucket).deleteUnder(creation.prefix()));
    claims.releaseAllOf(creation.ownerId());
    names.release(creation.orgId(), creation.name());
    pending.finish(creation.ownerId());
  }
}
