package io.floe.application.service.table;

import io.floe.application.port.in.table.CommitTableUseCase;
import io.floe.application.security.OrgContext;
import java.util.List;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.rest.responses.LoadTableResponse;

/** Commits to one table; the first commit of a staged create creates it. */
public final class CommitTableService implements CommitTableUseCase {
  private final TableCommits commits;
  private final StagedTableCompletion stagedCreates;

  public CommitTableService(TableCommits commits, StagedTableCompletion stagedCreates) {
    this.commits = commits;
    this.stagedCreates = stagedCreates;
  }

  @Override
  public LoadTableResponse commitTable(OrgContext context, TableIdentifier identifier,
      UpdateTableRequest request) {
    if (StagedTableCompletion.isCompletion(request)) {
      return stagedCreates.complete(context, identifier, request);
    }
    UpdateTableRequest change =
        UpdateTableRequest.create(identifier, request.requirements(), request.updates());
    return commits.commit(context, List.of(change), LoadTableResponse.class,
        committed -> LoadTableResponse.builder().withTableMetadata(committed.get(0)).build());
  }
}
