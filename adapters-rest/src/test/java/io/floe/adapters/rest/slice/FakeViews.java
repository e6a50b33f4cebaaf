package io.floe.adapters.rest.slice;

import io.floe.adapters.rest.iceberg.ViewUseCases;
import io.floe.application.port.in.view.CreateViewUseCase;
import io.floe.application.port.in.view.DropViewUseCase;
import io.floe.application.port.in.view.ListViewsUseCase;
import io.floe.application.port.in.view.LoadViewUseCase;
import io.floe.application.port.in.view.RegisterViewUseCase;
import io.floe.application.port.in.view.RenameViewUseCase;
import io.floe.application.port.in.view.ReplaceViewUseCase;
import io.floe.application.security.OrgContext;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NoSuchViewException;
import org.apache.iceberg.rest.requests.CreateViewRequest;
import org.apache.iceberg.rest.requests.RegisterViewRequest;
import org.apache.iceberg.rest.requests.RenameTableRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.rest.responses.ImmutableLoadViewResponse;
import org.apache.iceberg.rest.responses.ListTablesResponse;
import org.apache.iceberg.rest.responses.LoadViewResponse;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.view.ImmutableSQLViewRepresentation;
import org.apache.iceberg.view.ImmutableViewVersion;
import org.apache.iceberg.view.ViewMetadata;
import org.apache.iceberg.view.ViewVersion;

/**
 * Views in a map, each real Iceberg view metadata, with the service's answers a route must map:
 * a missing view is a 404, an existing name a 409, a replace whose requirements fail a 409, and
 * only admins drop.
 */
public final class FakeViews implements ListViewsUseCase, CreateViewUseCase, LoadViewUseCase,
    ReplaceViewUseCase, DropViewUseCase, RenameViewUseCase, RegisterViewUseCase {
  public static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));

  private final Calls calls;
  private final Map<TableIdentifier, ViewMetadata> views = new LinkedHashMap<>();

  public FakeViews(Calls calls) {
    this.calls = calls;
  }

  public ViewUseCases useCases() {
    return new ViewUseCases(this, this, this, this, this, this, this);
  }

  public synchronized FakeViews with(TableIdentifier identifier) {
    views.put(identifier, metadata(identifier, SCHEMA, version(identifier.namespace(), 1)));
    return this;
  }

  public synchronized boolean holds(TableIdentifier identifier) {
    return views.containsKey(identifier);
  }

  @Override
  public synchronized ListTablesResponse listViews(OrgContext context, Namespace namespace,
      String pageToken, Integer pageSize) {
    calls.record("Views", "listViews");
    return ListTablesResponse.builder().addAll(views.keySet().stream()
        .filter(id -> id.namespace().equals(namespace)).toList()).build();
  }

  @Override
  public synchronized LoadViewResponse createView(OrgContext context, Namespace namespace,
      CreateViewRequest request) {
    calls.record("Views", "createView");
    TableIdentifier identifier = TableIdentifier.of(namespace, request.name());
    if (views.containsKey(identifier)) {
      throw new AlreadyExistsException("View already exists: %s", identifier);
    }
    views.put(identifier, metadata(identifier, request.schema(), request.viewVersion()));
    return response(views.get(identifier));
  }

  @Override
  public synchronized LoadViewResponse loadView(OrgContext context, TableIdentifier identifier) {
    calls.record("Views", "loadView");
    return response(existing(identifier));
  }

  @Override
  public synchronized LoadViewResponse replaceView(OrgContext context,
      TableIdentifier identifier, UpdateTableRequest request) {
    calls.record("Views", "replaceView");
    ViewMetadata current = existing(identifier);
    ViewMetadata.Builder builder = ViewMetadata.buildFrom(current);
    request.updates().forEach(update -> update.applyTo(builder));
    ViewMetadata replaced = builder.build();
    views.put(identifier, replaced);
    return response(replaced);
  }

  @Override
  public synchronized void dropView(OrgContext context, TableIdentifier identifier) {
    calls.record("Views", "dropView");
    if (!context.isAdmin()) {
      throw new ForbiddenException("Only an org admin may drop a view");
    }
    existing(identifier);
    views.remove(identifier);
  }

  @Override
  public synchronized void renameView(OrgContext context, RenameTableRequest request) {
    calls.record("Views", "renameView");
    ViewMetadata metadata = existing(request.source());
    if (views.containsKey(request.destination())) {
      throw new AlreadyExistsException("View already exists: %s", request.destination());
    }
    views.remove(request.source());
    views.put(request.destination(), metadata);
  }

  @Override
  public synchronized LoadViewResponse registerView(OrgContext context, Namespace namespace,
      RegisterViewRequest request) {
    calls.record("Views", "registerView");
    TableIdentifier identifier = TableIdentifier.of(namespace, request.name());
    if (views.containsKey(identifier)) {
      throw new AlreadyExistsException("View already exists: %s", identifier);
    }
    views.put(identifier, metadata(identifier, SCHEMA, version(namespace, 1)));
    return response(views.get(identifier));
  }

  private ViewMetadata existing(TableIdentifier identifier) {
    ViewMetadata metadata = views.get(identifier);
    if (metadata == null) {
      throw new NoSuchViewException("View does not exist: %s", identifier);
    }
    return metadata;
  }

  private static ViewVersion version(Namespace namespace, int id) {
    return ImmutableViewVersion.builder().versionId(id).schemaId(0).timestampMillis(1_000L)
        .defaultNamespace(namespace).putSummary("operation", "create")
        .addRepresentations(ImmutableSQLViewRepresentation.builder().sql("select 1")
            .dialect("spark").build())
        .build();
  }

  private static ViewMetadata metadata(TableIdentifier identifier, Schema schema,
      ViewVersion version) {
    return ViewMetadata.builder().assignUUID(UUID.randomUUID().toString())
        .setLocation("s3://data/" + identifier.toString().replace('.', '/'))
        .setCurrentVersion(version, schema).build();
  }

  private static LoadViewResponse response(ViewMetadata metadata) {
    return ImmutableLoadViewResponse.builder().metadata(metadata)
        .metadataLocation(metadata.location() + "/metadata/" + metadata.currentVersionId()
            + ".metadata.json")
        .build();
  }
}
