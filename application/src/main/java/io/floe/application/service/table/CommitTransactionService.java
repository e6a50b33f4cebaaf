package io.floe.application.service.table;

import io.floe.application.port.in.table.CommitTransactionUseCase;
import io.floe.application.security.OrgContext;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.rest.requests.CommitTransactionRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;

/** Commits changes to several tables in one database transaction: all or none. */
public final class CommitTransactionService implements CommitTransactionUseCase {
  private final TableCommits commits;

  public CommitTransactionService(TableCommits commits) {
    this.commits = commits;
  }

  @Override
  public void commitTransaction(OrgContext context, CommitTransactionRequest request) {
    request.validate();
    for (UpdateTableRequest change : request.tableChanges()) {
      if (StagedTableCompletion.isCompletion(change)) {
        throw new BadRequestException(
            "Creating table %s inside a multi-table transaction is not supported",
            change.identifier());
      }
    }
    commits.commit(context, request.tableChanges(), Void.class, committed -> null);
  }
}
