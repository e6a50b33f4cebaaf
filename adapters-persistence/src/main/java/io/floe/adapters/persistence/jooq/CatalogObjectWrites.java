package io.floe.adapters.persistence.jooq;

import java.util.UUID;

/**
 * Told of every change to an existing table or view's row, inside the change's transaction and
 * before the change is sent: what keeps pointers in memory must know before anyone could see it.
 * A new row needs no telling: nothing can have kept an object that did not exist.
 */
@FunctionalInterface
public interface CatalogObjectWrites {
  /** For a store whose rows nobody keeps in memory. */
  CatalogObjectWrites NONE = objectId -> { };

  /**
   * Called inside the transaction, before the row of {@code objectId} is changed or deleted; may
   * refuse the change by throwing.
   */
  void beforeWrite(UUID objectId);
}
