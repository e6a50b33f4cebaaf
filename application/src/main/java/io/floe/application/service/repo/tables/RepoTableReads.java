package io.floe.application.service.repo.tables;

import io.floe.application.iceberg.MetadataFiles;
import io.floe.application.iceberg.PageToken;
import io.floe.application.model.AccessDelegation;
import io.floe.application.port.in.table.LoadTableUseCase.LoadedTable;
import io.floe.application.port.out.CredentialVendor.Access;
import io.floe.application.port.out.RepoTablePointers.RepoTable;
import io.floe.application.security.OrgContext;
import io.floe.application.service.catalog.TableLocations;
import io.floe.application.service.storage.TableStorageAccess;
import io.floe.application.service.storage.TableStorageAccess.Granted;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.rest.RESTCatalogProperties.SnapshotMode;
import org.apache.iceberg.rest.responses.ListTablesResponse;

/**
 * Reads the tables a repo version declares: lists them and loads each one's metadata from the
 * pointer that version carries. A table must lie inside its repo, and its metadata inside the
 * table, or it is refused rather than read with the server's credentials.
 */
public final class RepoTableReads {
  private final MetadataFiles files;
  private final TableStorageAccess storageAccess;

  public RepoTableReads(MetadataFiles files, TableStorageAccess storageAccess) {
    this.files = files;
    this.storageAccess = storageAccess;
  }

  /** One page of the tables the version declares with a pointer, by name. */
  public ListTablesResponse list(RepoNamespace namespace, String pageToken, Integer pageSize) {
    int fetch = PageToken.fetchSize(pageSize);
    String after = PageToken.decode(pageToken).orElse(null);
    List<String> names = namespace.version().tables().values().stream()
        .filter(table -> table.metadataLocation().isPresent())
        .map(RepoTable::name)
        .filter(name -> after == null || name.compareTo(after) > 0)
        .limit(fetch)
        .toList();
    boolean more = pageSize != null && names.size() == fetch;
    List<String> page = more ? names.subList(0, fetch - 1) : names;
    ListTablesResponse.Builder response = ListTablesResponse.builder();
    page.forEach(name -> response.add(TableIdentifier.of(namespace.namespace(), name)));
    if (more) {
      response.nextPageToken(PageToken.encode(page.get(page.size() - 1)));
    }
    return response.build();
  }

  public LoadedTable load(OrgContext context, RepoNamespace namespace,
      TableIdentifier identifier, SnapshotMode mode, Set<AccessDelegation> delegation) {
    RepoTable table = table(namespace, identifier);
    String location = metadataLocation(namespace, identifier, table);
    Granted granted = storageAccess.grant(context, identifier, namespace.bucket(),
        TableLocations.pathIn(namespace.bucket(), table.location()), access(namespace),
        delegation);
    return new LoadedTable(location, files.tableJson(namespace.bucket(), location, mode),
        () -> files.readTable(namespace.bucket(), location, mode), granted.config(),
        granted.credentials());
  }

  /** The metadata location the version points the table at. */
  public String currentMetadataLocation(RepoNamespace namespace, TableIdentifier identifier) {
    return metadataLocation(namespace, identifier, table(namespace, identifier));
  }

  /** What storage credentials for a repo table may do: write on a branch, read elsewhere. */
  static Access access(RepoNamespace namespace) {
    return namespace.isWritable() ? Access.READ_WRITE : Access.READ_ONLY;
  }

  static RepoTable table(RepoNamespace namespace, TableIdentifier identifier) {
    RepoTable table = namespace.version().tables().get(identifier.name());
    if (table == null) {
      throw new NoSuchTableException("Table does not exist: %s", identifier);
    }
    TableLocations.requireWithin(namespace.bucket(), namespace.rootUri(), "location",
        table.location());
    return table;
  }

  /**
   * The table's pointer in this version. A declared table without one is a malformed store: it
   * cannot be loaded, and the message says why (the convention forbids falling back to another
   * snapshot's pointer).
   */
  static String metadataLocation(RepoNamespace namespace, TableIdentifier identifier,
      RepoTable table) {
    String location = table.metadataLocation().orElseThrow(() -> new NoSuchTableException(
        "Table %s is declared by group %s, but snapshot %s of repo %s has no pointer for it "
            + "(a malformed store: %s)", identifier, table.group(),
        namespace.version().snapshotId(), namespace.repo().name(),
        String.join("; ", namespace.version().problems())));
    TableLocations.requireWithin(namespace.bucket(), table.location(), "metadata file", location);
    return location;
  }
}
