package io.floe.adapters.rest.slice;

import io.floe.adapters.rest.iceberg.TableUseCases;
import io.floe.application.iceberg.SerializedMetadata;
import io.floe.application.model.AccessDelegation;
import io.floe.application.port.in.storage.StorageAccessUseCase;
import io.floe.application.port.in.table.CommitTableUseCase;
import io.floe.application.port.in.table.CommitTransactionUseCase;
import io.floe.application.port.in.table.CreateTableUseCase;
import io.floe.application.port.in.table.DropTableUseCase;
import io.floe.application.port.in.table.ListTablesUseCase;
import io.floe.application.port.in.table.LoadTableUseCase;
import io.floe.application.port.in.table.PlanTableScanUseCase;
import io.floe.application.port.in.table.RegisterTableUseCase;
import io.floe.application.port.in.table.RenameTableUseCase;
import io.floe.application.port.in.table.ReportMetricsUseCase;
import io.floe.application.security.OrgContext;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.rest.RESTCatalogProperties.SnapshotMode;
import org.apache.iceberg.rest.requests.CommitTransactionRequest;
import org.apache.iceberg.rest.requests.CreateTableRequest;
import org.apache.iceberg.rest.requests.RegisterTableRequest;
import org.apache.iceberg.rest.requests.RemoteSignRequest;
import org.apache.iceberg.rest.requests.RenameTableRequest;
import org.apache.iceberg.rest.requests.ReportMetricsRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.rest.responses.ListTablesResponse;
import org.apache.iceberg.rest.responses.LoadCredentialsResponse;
import org.apache.iceberg.rest.responses.LoadTableResponse;
import org.apache.iceberg.rest.responses.RemoteSignResponse;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.exceptions.NoSuchPlanIdException;
import org.apache.iceberg.exceptions.NoSuchPlanTaskException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.expressions.Binder;
import org.apache.iceberg.rest.PlanStatus;
import org.apache.iceberg.rest.requests.FetchScanTasksRequest;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;
import org.apache.iceberg.rest.responses.FetchPlanningResultResponse;
import org.apache.iceberg.rest.responses.FetchScanTasksResponse;
import org.apache.iceberg.rest.responses.PlanTableScanResponse;

/**
 * Tables in a map, each a real Iceberg metadata object at a location that changes with every
 * commit, with the service's answers a route must map: a missing table is a 404, an existing
 * name a 409, a commit whose requirements name a table uuid other than the table's a 409, and
 * only admins drop. What the routes passed (purge flag, delegation, snapshot mode) is kept.
 */
public final class FakeTables implements ListTablesUseCase, CreateTableUseCase, LoadTableUseCase,
    CommitTableUseCase, CommitTransactionUseCase, DropTableUseCase, RenameTableUseCase,
    RegisterTableUseCase, ReportMetricsUseCase, StorageAccessUseCase,
    PlanTableScanUseCase {
  public static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

  private final Calls calls;
  private final Map<TableIdentifier, TableMetadata> tables = new LinkedHashMap<>();
  public volatile boolean lastPurgeRequested;
  public volatile Set<AccessDelegation> lastDelegation;
  public volatile SnapshotMode lastMode;

  public FakeTables(Calls calls) {
    this.calls = calls;
  }

  /** The table use cases, all served by this fake. */
  public TableUseCases useCases() {
    return new TableUseCases(this, this, this, this, this, this, this, this, this, this, this);
  }

  public synchronized FakeTables with(TableIdentifier identifier) {
    tables.put(identifier, placed(identifier, 1));
    return this;
  }

  public synchronized boolean holds(TableIdentifier identifier) {
    return tables.containsKey(identifier);
  }

  public synchronized String metadataLocation(TableIdentifier identifier) {
    return existing(identifier).metadataFileLocation();
  }

  @Override
  public synchronized ListTablesResponse listTables(OrgContext context, Namespace namespace,
      String pageToken, Integer pageSize) {
    calls.record("Tables", "listTables");
    return ListTablesResponse.builder().addAll(tables.keySet().stream()
        .filter(id -> id.namespace().equals(namespace)).toList()).build();
  }

  @Override
  public synchronized LoadTableResponse createTable(OrgContext context, Namespace namespace,
      CreateTableRequest request, Set<AccessDelegation> delegation) {
    calls.record("Tables", "createTable");
    lastDelegation = delegation;
    TableIdentifier identifier = TableIdentifier.of(namespace, request.name());
    if (tables.containsKey(identifier)) {
      throw new AlreadyExistsException("Table already exists: %s", identifier);
    }
    tables.put(identifier, placed(identifier, 1));
    return LoadTableResponse.builder().withTableMetadata(tables.get(identifier)).build();
  }

  @Override
  public synchronized LoadedTable loadTable(OrgContext context, TableIdentifier identifier,
      SnapshotMode mode, Set<AccessDelegation> delegation) {
    calls.record("Tables", "loadTable");
    lastMode = mode;
    lastDelegation = delegation;
    TableMetadata metadata = existing(identifier);
    return new LoadedTable(metadata.metadataFileLocation(), SerializedMetadata.of(metadata),
        () -> metadata, Map.of(), List.of());
  }

  @Override
  public synchronized String currentMetadataLocation(OrgContext context,
      TableIdentifier identifier) {
    calls.record("Tables", "currentMetadataLocation");
    return existing(identifier).metadataFileLocation();
  }

  @Override
  public synchronized LoadTableResponse commitTable(OrgContext context,
      TableIdentifier identifier, UpdateTableRequest request) {
    calls.record("Tables", "commitTable");
    TableMetadata current = existing(identifier);
    request.requirements().forEach(requirement -> requirement.validate(current));
    int version = Integer.parseInt(current.metadataFileLocation()
        .replaceAll(".*/(\\d+)\\.metadata\\.json$", "$1")) + 1;
    tables.put(identifier, placed(identifier, version));
    return LoadTableResponse.builder().withTableMetadata(tables.get(identifier)).build();
  }

  @Override
  public synchronized void commitTransaction(OrgContext context,
      CommitTransactionRequest request) {
    calls.record("Tables", "commitTransaction");
    request.tableChanges().forEach(change -> existing(change.identifier()));
  }

  @Override
  public synchronized void dropTable(OrgContext context, TableIdentifier identifier,
      boolean purgeRequested) {
    calls.record("Tables", "dropTable");
    lastPurgeRequested = purgeRequested;
    if (!context.isAdmin()) {
      throw new ForbiddenException("Only an org admin may drop a table");
    }
    existing(identifier);
    tables.remove(identifier);
  }

  @Override
  public synchronized void renameTable(OrgContext context, RenameTableRequest request) {
    calls.record("Tables", "renameTable");
    TableMetadata metadata = existing(request.source());
    if (tables.containsKey(request.destination())) {
      throw new AlreadyExistsException("Table already exists: %s", request.destination());
    }
    tables.remove(request.source());
    tables.put(request.destination(), metadata);
  }

  @Override
  public synchronized LoadTableResponse registerTable(OrgContext context, Namespace namespace,
      RegisterTableRequest request) {
    calls.record("Tables", "registerTable");
    TableIdentifier identifier = TableIdentifier.of(namespace, request.name());
    if (tables.containsKey(identifier)) {
      throw new AlreadyExistsException("Table already exists: %s", identifier);
    }
    tables.put(identifier, placed(identifier, 1));
    return LoadTableResponse.builder().withTableMetadata(tables.get(identifier)).build();
  }

  @Override
  public synchronized void reportMetrics(OrgContext context, TableIdentifier identifier,
      ReportMetricsRequest request) {
    calls.record("Tables", "reportMetrics");
    existing(identifier);
  }

  @Override
  public synchronized LoadCredentialsResponse credentials(OrgContext context,
      TableIdentifier identifier) {
    calls.record("Tables", "credentials");
    existing(identifier);
    return org.apache.iceberg.rest.responses.ImmutableLoadCredentialsResponse.builder().build();
  }

  @Override
  public synchronized RemoteSignResponse sign(OrgContext context, TableIdentifier identifier,
      RemoteSignRequest request) {
    calls.record("Tables", "sign");
    existing(identifier);
    return org.apache.iceberg.rest.responses.ImmutableRemoteSignResponse.builder().uri(request.uri()).headers(Map.of("Authorization",
        List.of("signed"))).build();
  }

  private TableMetadata existing(TableIdentifier identifier) {
    TableMetadata metadata = tables.get(identifier);
    if (metadata == null) {
      throw new NoSuchTableException("Table does not exist: %s", identifier);
    }
    return metadata;
  }

  private TableMetadata placed(TableIdentifier identifier, int version) {
    String location = "s3://data/" + identifier.toString().replace('.', '/');
    TableMetadata previous = tables.get(identifier);
    TableMetadata base = previous != null ? previous : TableMetadata.newTableMetadata(SCHEMA,
        PartitionSpec.unpartitioned(), SortOrder.unsorted(), location, Map.of());
    return TableMetadata.buildFrom(base).discardChanges()
        .withMetadataLocation(location + "/metadata/" + version + ".metadata.json").build();
  }

  /** The one plan id and plan task the fake knows. */
  public static final String PLAN_ID = "plan-1";
  public static final String PLAN_TASK = "task-1";

  /**
   * A plan of no files, as the service answers it: a filter is bound to the table's schema (an
   * unknown column is a 400), a snapshot the fake tables never have is a 404.
   */
  @Override
  public synchronized PlanTableScanResponse plan(OrgContext context, TableIdentifier identifier,
      PlanTableScanRequest request, Set<AccessDelegation> delegation) {
    calls.record("Tables", "plan");
    lastDelegation = delegation;
    TableMetadata metadata = existing(identifier);
    if (request.filter() != null) {
      Binder.bind(metadata.schema().asStruct(), request.filter(), request.caseSensitive());
    }
    if (request.snapshotId() != null) {
      throw new NotFoundException("The table has no snapshot %s", request.snapshotId());
    }
    return PlanTableScanResponse.builder().withPlanStatus(PlanStatus.COMPLETED)
        .withPlanId(PLAN_ID).withPlanTasks(List.of(PLAN_TASK))
        .withSpecsById(metadata.specsById()).build();
  }

  @Override
  public synchronized FetchScanTasksResponse fetchTasks(OrgContext context,
      TableIdentifier identifier, FetchScanTasksRequest request) {
    calls.record("Tables", "fetchTasks");
    TableMetadata metadata = existing(identifier);
    if (!PLAN_TASK.equals(request.planTask())) {
      throw new NoSuchPlanTaskException("No such plan task for table %s", identifier);
    }
    return FetchScanTasksResponse.builder().withFileScanTasks(List.of())
        .withSpecsById(metadata.specsById()).build();
  }

  @Override
  public synchronized FetchPlanningResultResponse result(OrgContext context,
      TableIdentifier identifier, String planId) {
    calls.record("Tables", "result");
    TableMetadata metadata = existing(identifier);
    if (!PLAN_ID.equals(planId)) {
      throw new NoSuchPlanIdException("No such plan for table %s", identifier);
    }
    return FetchPlanningResultResponse.builder().withPlanStatus(PlanStatus.COMPLETED)
        .withSpecsById(metadata.specsById()).build();
  }

  @Override
  public synchronized void cancel(OrgContext context, TableIdentifier identifier,
      String planId) {
    calls.record("Tables", "cancel");
    existing(identifier);
  }
}
