package io.floe.adapters.persistence.jooq;

/**
 * Told of every write to a table or view's row, inside the write's transaction and before the
 * write is sent: what keeps pointers in memory must know before anyone could see the change.
 */
@FunctionalInterface
public interface CatalogObjectWrites {
  /** For a store whose rows nobody keeps in memory. */
  CatalogObjectWrites NONE = () -> { };

  /** Called inside the transaction, before the write; may refuse it by throwing. */
  void beforeWrite();
}
