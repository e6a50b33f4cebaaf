package io.floe.application.service.lifecycle;

import io.floe.application.model.DeleteCommand;
import io.floe.application.port.out.NameRegistry;
import io.floe.application.port.out.SoftDeleteStore;
import io.floe.domain.CatalogName;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

/**
 * Marks a namespace or a repo deleted. A delete never touches storage: the owner keeps its name
 * and prefix for the recovery period, during which it can be restored, and the cleanup pass
 * removes it afterwards. Without a recovery period, or when asked to delete immediately, there is
 * nothing to restore, so the name is free at once; the prefix stays claimed until the cleanup has
 * emptied it.
 */
public final class SoftDeletion {
  private final NameRegistry names;
  private final Clock clock;
  private final Duration recoveryPeriod;

  public SoftDeletion(NameRegistry names, Clock clock, Duration recoveryPeriod) {
    this.names = names;
    this.clock = clock;
    this.recoveryPeriod = recoveryPeriod;
  }

  /** Runs in the caller's transaction, which holds the owner's row. */
  public void delete(SoftDeleteStore<?> store, UUID orgId, UUID ownerId, CatalogName name,
      DeleteCommand command) {
    Instant now = clock.instant();
    boolean releaseName = command.immediate() || recoveryPeriod.isZero();
    Instant purgeAfter = command.immediate() ? now : now.plus(recoveryPeriod);
    store.markDeleted(ownerId, now, purgeAfter, command.retainData(), releaseName);
    if (releaseName) {
      names.releaseIfHeldBy(orgId, name, ownerId);
    }
  }
}
