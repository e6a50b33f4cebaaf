package io.floe.application.service.table;

import io.floe.application.iceberg.MetadataFiles;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.application.service.catalog.CatalogChanges;
import io.floe.application.service.catalog.CatalogCommitter;
import io.floe.application.service.catalog.CatalogCommitter.Plan;
import io.floe.application.service.catalog.CatalogCommitter.Swap;
import io.floe.application.service.catalog.CatalogLocator;
import io.floe.application.service.catalog.ResolvedTable;
import io.floe.application.service.catalog.TableLocations;
import io.floe.application.service.change.ChangePublisher;
import io.floe.domain.Action;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.rest.requests.UpdateTableRequest;

/**
 * Commits changes to existing tables, wherever their pointers live: validates the client's
 * requirements against each table's current metadata, applies the updates with iceberg-core's own
 * classes, writes the new metadata files and hands the pointer moves to the
 * {@link CatalogCommitter}. A change that lost a race to another writer's append is replayed onto
 * the new head ({@link TableChanges}). In every attempt, every table is resolved and authorized,
 * and every change applied and checked, before any file is written: a transaction refused for its
 * last table leaves no file of its first behind.
 */
public final class TableCommits {
  private final CatalogLocator locator;
  private final AccessPolicy policy;
  private final MetadataFiles files;
  private final CatalogCommitter committer;
  private final ChangePublisher publisher;
  private final TableChanges tableChanges;

  public TableCommits(CatalogLocator locator, AccessPolicy policy, MetadataFiles files,
      CatalogCommitter committer, ChangePublisher publisher, TableChanges tableChanges) {
    this.locator = locator;
    this.policy = policy;
    this.files = files;
    this.committer = committer;
    this.publisher = publisher;
    this.tableChanges = tableChanges;
  }

  /**
   * Commits every change or none. The use case's result is made from each table's metadata after
   * the commit; a request repeated with its idempotency key gets the recorded result instead.
   */
  public <R> R commit(OrgContext context, List<UpdateTableRequest> changes, Class<R> resultType,
      Function<List<TableMetadata>, R> result) {
    requireDistinct(changes);
    List<ResolvedTable> authorized = writable(context, changes);
    Optional<ChangePublisher.Replay<R>> replay = publisher.replay(context, resultType);
    if (replay.isPresent()) {
      return replay.get().result();
    }
    String what = changes.size() == 1 ? "table " + changes.get(0).identifier()
        : changes.size() + " tables";
    // The first attempt plans on the tables just resolved and authorized; should their pointers
    // have moved meanwhile, its swap fails and every later attempt resolves them anew.
    AtomicReference<List<ResolvedTable>> resolved = new AtomicReference<>(authorized);
    return committer.commit(context, what, () -> {
      List<ResolvedTable> tables = resolved.getAndSet(null);
      Plan<List<TableMetadata>> plan = plan(changes,
          tables != null ? tables : writable(context, changes));
      return new Plan<>(plan.swaps(), result.apply(plan.result()));
    });
  }

  private Plan<List<TableMetadata>> plan(List<UpdateTableRequest> changes,
      List<ResolvedTable> tables) {
    List<String> locations = new ArrayList<>();
    List<TableMetadata> bases = new ArrayList<>();
    List<Optional<TableMetadata>> updates = new ArrayList<>();
    for (int i = 0; i < changes.size(); i++) {
      ResolvedTable table = tables.get(i);
      String location = table.metadataLocation();
      TableMetadata base = files.readTable(table.bucket(), location);
      Optional<TableMetadata> updated = tableChanges.apply(new TableChanges.Target(
          changes.get(i).identifier(), table.bucket(), table.rootUri()), base, changes.get(i));
      updated.ifPresent(next -> {
        table.requireAllowed(next);
        TableLocations.requireWithin(table.bucket(), table.rootUri(), next);
      });
      locations.add(location);
      bases.add(base);
      updates.add(updated);
    }
    List<Swap> swaps = new ArrayList<>();
    List<TableMetadata> results = new ArrayList<>();
    for (int i = 0; i < changes.size(); i++) {
      if (updates.get(i).isEmpty()) {
        results.add(bases.get(i));
        continue;
      }
      ResolvedTable table = tables.get(i);
      String current = locations.get(i);
      TableMetadata written = files.writeTable(table.bucket(), updates.get(i).get(),
          Optional.of(current));
      swaps.add(new Swap(table.pointer(), current, written.metadataFileLocation(),
          CatalogChanges.tableCommitted(changes.get(i).identifier(), current, bases.get(i),
              written, changes.get(i).updates())));
      results.add(written);
    }
    return new Plan<>(swaps, results);
  }

  /** Every change's table, resolved and authorized; they must keep their pointers together. */
  private List<ResolvedTable> writable(OrgContext context, List<UpdateTableRequest> changes) {
    List<ResolvedTable> tables = new ArrayList<>();
    for (UpdateTableRequest change : changes) {
      ResolvedTable table = locator.table(context, change.identifier());
      table.require(policy, context, Action.WRITE);
      if (!tables.isEmpty() && !table.pointerHome().equals(tables.get(0).pointerHome())) {
        throw new BadRequestException("A transaction changes tables whose pointers live in one "
            + "place: %s keeps its pointer in %s, %s in %s", changes.get(0).identifier(),
            tables.get(0).pointerHome(), change.identifier(), table.pointerHome());
      }
      tables.add(table);
    }
    return tables;
  }

  private static void requireDistinct(List<UpdateTableRequest> changes) {
    Set<TableIdentifier> seen = new HashSet<>();
    for (UpdateTableRequest change : changes) {
      if (change.identifier() == null) {
        throw new BadRequestException("Every table change needs an identifier");
      }
      if (!seen.add(change.identifier())) {
        throw new BadRequestException("Table %s appears twice in one transaction",
            change.identifier());
      }
    }
  }
}
