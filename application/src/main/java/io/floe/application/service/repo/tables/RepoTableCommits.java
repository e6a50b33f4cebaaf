package io.floe.application.service.repo.tables;

import io.floe.application.iceberg.MetadataFiles;
import io.floe.application.model.AuditAction;
import io.floe.application.model.AuditedChange;
import io.floe.application.port.out.RepoTablePointers.RepoTable;
import io.floe.application.port.out.RepoTablePointers;
import io.floe.application.security.OrgContext;
import io.floe.application.service.catalog.CatalogChanges;
import io.floe.application.service.catalog.TableLocations;
import io.floe.application.service.change.ChangePublisher;
import io.floe.application.service.table.TableChanges;
import io.floe.domain.CatalogObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.rest.requests.UpdateTableRequest;

/**
 * Commits engines' changes to the tables of a repo branch: each change is applied on the table's
 * version at the branch's head (a lost append replayed there), its metadata file written next to
 * the table's others, and all of the request's tables moved in one Icechunk commit that carries
 * every other table's pointer forward and leaves the arrays alone.
 */
public final class RepoTableCommits {
  private final RepoTablePointers pointers;
  private final MetadataFiles files;
  private final TableChanges tableChanges;
  private final RepoTableCommitter committer;
  private final ChangePublisher publisher;

  public RepoTableCommits(RepoTablePointers pointers, MetadataFiles files,
      TableChanges tableChanges, RepoTableCommitter committer, ChangePublisher publisher) {
    this.pointers = pointers;
    this.files = files;
    this.tableChanges = tableChanges;
    this.committer = committer;
    this.publisher = publisher;
  }

  /** Commits every change or none; all must be to tables of {@code namespace}. */
  public <R> R commit(OrgContext context, RepoNamespace namespace,
      List<UpdateTableRequest> changes, Class<R> resultType,
      Function<List<TableMetadata>, R> result) {
    String branch = namespace.requireBranch();
    requireDistinctTablesOf(namespace, changes);
    Optional<ChangePublisher.Replay<R>> replay = publisher.replay(context, resultType);
    if (replay.isPresent()) {
      return replay.get().result();
    }
    String what = changes.size() == 1 ? "table " + changes.get(0).identifier()
        : changes.size() + " tables";
    return committer.commit(context, namespace, what, () -> {
      RepoNamespace head = new RepoNamespace(namespace.repo(), namespace.bucket(),
          namespace.namespace(), pointers.read(namespace.bucket(),
              namespace.repo().location().path(), branch));
      List<RepoTablePointers.Move> moves = new ArrayList<>();
      List<TableMetadata> results = new ArrayList<>();
      List<AuditedChange> audited = new ArrayList<>();
      for (UpdateTableRequest change : changes) {
        int movesBefore = moves.size();
        TableMetadata committed = plan(head, change, moves);
        results.add(committed);
        if (moves.size() > movesBefore) {
          RepoTablePointers.Move move = moves.get(moves.size() - 1);
          audited.add(CatalogChanges.committed(AuditAction.TABLE_COMMIT, CatalogObject.Kind.TABLE,
              change.identifier(), move.expectedMetadataLocation(), move.metadataLocation(),
              change.updates()));
        }
      }
      return new RepoTableCommitter.Plan<>(new RepoTablePointers.Commit(branch, moves, List.of(),
          "Iceberg commit to " + what + " through Floe"), result.apply(results), audited);
    });
  }

  /** Applies one change at the head; adds the pointer move it needs, returns its metadata. */
  private TableMetadata plan(RepoNamespace head, UpdateTableRequest change,
      List<RepoTablePointers.Move> moves) {
    TableIdentifier identifier = change.identifier();
    RepoTable table = RepoTableReads.table(head, identifier);
    String current = RepoTableReads.metadataLocation(head, identifier, table);
    TableMetadata base = files.readTable(head.bucket(), current);
    Optional<TableMetadata> updated = tableChanges.apply(
        new TableChanges.Target(identifier, head.bucket(), table.location()), base, change);
    if (updated.isEmpty()) {
      return base;
    }
    RepoTableProperties.requireKept(updated.get(), identifier.toString());
    TableLocations.requireWithin(head.bucket(), table.location(), updated.get());
    TableMetadata written = files.writeTable(head.bucket(), updated.get(), Optional.of(current));
    moves.add(new RepoTablePointers.Move(table.name(), current, written.metadataFileLocation()));
    return written;
  }

  private static void requireDistinctTablesOf(RepoNamespace namespace,
      List<UpdateTableRequest> changes) {
    Set<String> seen = new HashSet<>();
    for (UpdateTableRequest change : changes) {
      if (change.identifier() == null) {
        throw new BadRequestException("Every table change needs an identifier");
      }
      if (!change.identifier().namespace().equals(namespace.namespace())) {
        throw new BadRequestException("A transaction that changes a table of %s can change only "
            + "tables of %s (one Icechunk commit); %s is elsewhere", namespace.namespace(),
            namespace.namespace(), change.identifier());
      }
      if (!seen.add(change.identifier().name())) {
        throw new BadRequestException("Table %s appears twice in one transaction",
            change.identifier());
      }
    }
  }
}
