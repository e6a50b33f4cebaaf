package io.floe.application.service.maintenance;

import io.floe.application.iceberg.MetadataFiles;
import io.floe.application.port.in.table.CommitTableUseCase;
import io.floe.application.security.OrgContext;
import io.floe.application.service.catalog.CatalogLocator;
import io.floe.application.service.catalog.ResolvedTable;
import java.util.List;
import org.apache.iceberg.LocationProviders;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.UpdateRequirements;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.encryption.EncryptionManager;
import org.apache.iceberg.encryption.PlaintextEncryptionManager;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.LocationProvider;
import org.apache.iceberg.rest.requests.UpdateTableRequest;

/**
 * A table as iceberg-core's actions see it, whose commits take the path every client's commit
 * takes: {@link #commit} sends the changes with the requirements a REST client would send
 * ({@link UpdateRequirements}) through the commit use case, so they are authorized, validated
 * against the current metadata and published by the one committer. A commit that lost a race
 * fails with {@code CommitFailedException}, and iceberg-core's retry refreshes and re-applies
 * (and re-validates) the operation on the new head.
 */
final class CatalogTableOperations implements TableOperations {
  private final OrgContext context;
  private final TableIdentifier identifier;
  private final CatalogLocator locator;
  private final MetadataFiles files;
  private final CommitTableUseCase commits;
  private final FileIO io;
  private TableMetadata current;

  CatalogTableOperations(OrgContext context, TableIdentifier identifier, ResolvedTable table,
      CatalogLocator locator, MetadataFiles files, CommitTableUseCase commits) {
    this.context = context;
    this.identifier = identifier;
    this.locator = locator;
    this.files = files;
    this.commits = commits;
    // Everything iceberg-core's actions read, write or delete for the table stays inside it.
    this.io = files.tableIo(table.bucket(), table.rootUri());
    this.current = files.readTable(table.bucket(), table.metadataLocation());
  }

  @Override
  public TableMetadata current() {
    return current;
  }

  @Override
  public TableMetadata refresh() {
    ResolvedTable table = locator.table(context, identifier);
    current = files.readTable(table.bucket(), table.metadataLocation());
    return current;
  }

  @Override
  public void commit(TableMetadata base, TableMetadata metadata) {
    List<MetadataUpdate> updates = metadata.changes();
    List<UpdateRequirement> requirements = UpdateRequirements.forUpdateTable(base, updates);
    current = commits.commitTable(context, identifier,
        UpdateTableRequest.create(identifier, requirements, updates)).tableMetadata();
  }

  @Override
  public FileIO io() {
    return io;
  }

  @Override
  public EncryptionManager encryption() {
    return PlaintextEncryptionManager.instance();
  }

  @Override
  public String metadataFileLocation(String fileName) {
    String directory = current.properties().get(TableProperties.WRITE_METADATA_LOCATION);
    return (directory != null ? stripSlash(directory) : current.location() + "/metadata")
        + "/" + fileName;
  }

  @Override
  public LocationProvider locationProvider() {
    return LocationProviders.locationsFor(current.location(), current.properties());
  }

  private static String stripSlash(String path) {
    return path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
  }
}
