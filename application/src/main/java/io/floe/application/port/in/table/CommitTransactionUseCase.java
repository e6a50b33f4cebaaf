package io.floe.application.port.in.table;

import io.floe.application.security.OrgContext;
import org.apache.iceberg.rest.requests.CommitTransactionRequest;

/** Commits changes to several tables atomically: all or none. */
public interface CommitTransactionUseCase {
  void commitTransaction(OrgContext context, CommitTransactionRequest request);
}
