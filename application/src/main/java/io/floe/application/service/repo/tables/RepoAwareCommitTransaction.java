package io.floe.application.service.repo.tables;

import io.floe.application.port.in.table.CommitTransactionUseCase;
import io.floe.application.security.OrgContext;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.rest.requests.CommitTransactionRequest;

/**
 * Multi-table transactions: plain tables as before, all in one database transaction; tables of
 * one repo branch in one Icechunk commit. A transaction cannot span both kinds.
 */
public final class RepoAwareCommitTransaction implements CommitTransactionUseCase {
  private final CommitTransactionUseCase plain;
  private final RepoRouting routing;
  private final RepoTableCommits commits;

  public RepoAwareCommitTransaction(CommitTransactionUseCase plain, RepoRouting routing,
      RepoTableCommits commits) {
    this.plain = plain;
    this.routing = routing;
    this.commits = commits;
  }

  @Override
  public void commitTransaction(OrgContext context, CommitTransactionRequest request) {
    request.validate();
    if (request.tableChanges().isEmpty() || request.tableChanges().get(0).identifier() == null) {
      throw new BadRequestException("Every table change needs an identifier");
    }
    routing.run(context, request.tableChanges().get(0).identifier().namespace(),
        () -> plain.commitTransaction(context, request),
        repo -> commits.commit(context, repo, request.tableChanges(), Void.class,
            committed -> null));
  }
}
