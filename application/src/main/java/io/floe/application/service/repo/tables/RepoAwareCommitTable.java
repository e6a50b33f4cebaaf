package io.floe.application.service.repo.tables;

import io.floe.application.port.in.table.CommitTableUseCase;
import io.floe.application.security.OrgContext;
import io.floe.application.service.table.StagedTableCompletion;
import java.util.List;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.rest.responses.LoadTableResponse;

/** Commits to plain tables as before; to a repo table, as one Icechunk commit on its branch. */
public final class RepoAwareCommitTable implements CommitTableUseCase {
  private final CommitTableUseCase plain;
  private final RepoRouting routing;
  private final RepoTableCommits commits;
  private final RepoTableCreation creation;

  public RepoAwareCommitTable(CommitTableUseCase plain, RepoRouting routing,
      RepoTableCommits commits, RepoTableCreation creation) {
    this.plain = plain;
    this.routing = routing;
    this.commits = commits;
    this.creation = creation;
  }

  @Override
  public LoadTableResponse commitTable(OrgContext context, TableIdentifier identifier,
      UpdateTableRequest request) {
    return routing.route(context, identifier.namespace(),
        () -> plain.commitTable(context, identifier, request),
        repo -> {
          if (StagedTableCompletion.isCompletion(request)) {
            return creation.complete(context, repo, identifier, request);
          }
          UpdateTableRequest change =
              UpdateTableRequest.create(identifier, request.requirements(), request.updates());
          return commits.commit(context, repo, List.of(change), LoadTableResponse.class,
              committed -> LoadTableResponse.builder().withTableMetadata(committed.get(0))
                  .build());
        });
  }
}
