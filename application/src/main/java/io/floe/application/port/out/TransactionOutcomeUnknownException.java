package io.floe.application.port.out;

import org.apache.iceberg.exceptions.CommitStateUnknownException;

/**
 * A transaction's connection broke while it committed, and the database stayed unreachable for as
 * long as Floe kept asking whether the commit took effect: it may have, or not. Only then is a
 * client told that the state of its change is unknown.
 */
public class TransactionOutcomeUnknownException extends CommitStateUnknownException {
  public TransactionOutcomeUnknownException(RuntimeException cause) {
    super(cause);
  }
}
