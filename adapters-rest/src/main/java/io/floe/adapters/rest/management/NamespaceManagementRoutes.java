package io.floe.adapters.rest.management;

import com.fasterxml.jackson.databind.JsonNode;
import io.floe.application.port.in.access.AuthenticateUseCase;
import io.floe.application.model.CreateNamespaceCommand;
import io.floe.application.model.DeleteCommand;
import io.floe.application.model.Invalid;
import io.floe.application.model.ListingSort;
import io.floe.application.model.ModifyNamespaceCommand;
import io.floe.application.port.in.namespace.NamespaceManagementUseCase;
import io.floe.application.model.NamespaceQuery;
import io.floe.application.model.PageRequest;
import io.floe.application.port.in.lifecycle.RunCleanupUseCase;
import io.floe.application.model.SortDirection;
import io.floe.application.model.TableQuery;
import io.floe.domain.CatalogName;
import io.floe.domain.Visibility;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import java.util.function.Consumer;

/**
 * The namespace management API under {@code /orgs/{org}/iceberg}, with the paths, parameters and
 * bodies the arraylake client uses. Handlers only translate between HTTP and use cases.
 */
public final class NamespaceManagementRoutes implements Consumer<RoutesConfig> {
  private static final String ROOT = "/orgs/{org}/iceberg";
  private static final String NAMESPACES = ROOT + "/namespaces";
  private static final String NAMESPACE = NAMESPACES + "/{name}";

  private final AuthenticateUseCase authentication;
  private final NamespaceManagementUseCase namespaces;
  private final RunCleanupUseCase cleanup;

  public NamespaceManagementRoutes(AuthenticateUseCase authentication,
      NamespaceManagementUseCase namespaces, RunCleanupUseCase cleanup) {
    this.authentication = authentication;
    this.namespaces = namespaces;
    this.cleanup = cleanup;
  }

  @Override
  public void accept(RoutesConfig routes) {
    // The fixed paths come before {name}, so that they are never read as a namespace's name.
    routes.get(NAMESPACES + "/paginated", handle(this::search));
    routes.get(NAMESPACES, handle(r -> r.ok(namespaces.list(r.scope(),
        new QueryParams(r.http()).flag("include_ghosts")).stream().map(NamespaceJson::of)
        .toList())));
    routes.post(NAMESPACES, handle(r -> r.respond(201,
        NamespaceJson.of(namespaces.create(r.scope(), createCommand(r))))));
    routes.get(NAMESPACE, handle(r -> r.ok(NamespaceJson.of(namespaces.get(r.scope(), name(r))))));
    routes.patch(NAMESPACE, handle(r -> r.ok(NamespaceJson.of(
        namespaces.modify(r.scope(), name(r), modifyCommand(r))))));
    routes.delete(NAMESPACE, handle(this::delete));
    routes.post(NAMESPACE + "/restore", handle(r -> r.ok(NamespaceJson.of(
        namespaces.restore(r.scope(), name(r))))));
    routes.get(NAMESPACE + "/tables/paginated", handle(this::tables));
    routes.post(ROOT + "/cleanup", handle(r -> r.ok(cleanup.runFor(r.scope()))));
  }

  private void search(ManagementRequest r) {
    QueryParams params = new QueryParams(r.http());
    NamespaceQuery query = NamespaceQuery.of(params.text("search"),
        MetadataValues.fromJson(params.json("filter_metadata").orElse(null), "filter_metadata"),
        ListingSort.parse(params.text("sort").orElse(null)),
        SortDirection.parse(params.text("direction").orElse(null)),
        params.flag("include_ghosts"), page(params));
    r.ok(NamespaceJson.page(namespaces.search(r.scope(), query), NamespaceJson::of));
  }

  private void tables(ManagementRequest r) {
    QueryParams params = new QueryParams(r.http());
    TableQuery query = TableQuery.of(params.text("search"),
        ListingSort.parse(params.text("sort").orElse(null)),
        SortDirection.parse(params.text("direction").orElse(null)), page(params));
    r.ok(NamespaceJson.page(namespaces.tables(r.scope(), name(r), query), NamespaceJson::of));
  }

  private void delete(ManagementRequest r) {
    QueryParams params = new QueryParams(r.http());
    if (!params.flag("imsure")) {
      throw Invalid.because("deleting a namespace needs imsure=true");
    }
    namespaces.delete(r.scope(), name(r),
        new DeleteCommand(params.flag("immediate"), params.flag("retain_data")));
    r.respond(204, null);
  }

  private static CreateNamespaceCommand createCommand(ManagementRequest r) {
    JsonFields body = new JsonFields(r.body(JsonNode.class));
    return new CreateNamespaceCommand(
        CreateNamespaceCommand.name(body.text("name").orElse(null), "namespace name"),
        body.text("bucket_nickname")
            .map(nickname -> CreateNamespaceCommand.name(nickname, "bucket_nickname")),
        body.text("description").filter(text -> !text.isEmpty()),
        MetadataValues.fromJson(body.node("metadata"), "metadata"),
        body.stringMap("properties"),
        body.visibility("visibility").orElse(Visibility.PRIVATE));
  }

  private static ModifyNamespaceCommand modifyCommand(ManagementRequest r) {
    JsonFields body = new JsonFields(r.body(JsonNode.class));
    return new ModifyNamespaceCommand(body.text("description"),
        MetadataValues.fromJson(body.node("add_metadata"), "add_metadata"),
        MetadataValues.fromJson(body.node("update_metadata"), "update_metadata"),
        body.stringSet("remove_metadata"), body.visibility("visibility"));
  }

  private static PageRequest page(QueryParams params) {
    return new PageRequest(params.integer("page", 1),
        params.integer("size", PageRequest.DEFAULT_SIZE));
  }

  /** The namespace named in the path; a name that breaks the rules names nothing. */
  private static CatalogName name(ManagementRequest r) {
    return CreateNamespaceCommand.name(r.http().pathParam("name"), "namespace name");
  }

  private Handler handle(Consumer<ManagementRequest> work) {
    return (Context ctx) -> work.accept(new ManagementRequest(ctx, authentication));
  }
}
