package io.floe.adapters.rest.iceberg;

import static io.floe.adapters.rest.iceberg.IcebergPaths.NAMESPACE;
import static io.floe.adapters.rest.iceberg.IcebergPaths.V1;
import static io.floe.adapters.rest.iceberg.IcebergPaths.VIEW;

import io.floe.application.iceberg.MetadataLimits;
import io.floe.application.port.in.access.AuthenticateUseCase;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Handler;
import java.util.function.Consumer;
import org.apache.iceberg.rest.requests.CreateViewRequest;
import org.apache.iceberg.rest.requests.RegisterViewRequest;
import org.apache.iceberg.rest.requests.RenameTableRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;

/** The Iceberg REST catalog's view routes. Handlers only translate between HTTP and use cases. */
final class ViewRoutes {
  private final AuthenticateUseCase authentication;
  private final ViewUseCases views;
  private final MetadataLimits limits;

  ViewRoutes(AuthenticateUseCase authentication, ViewUseCases views, MetadataLimits limits) {
    this.authentication = authentication;
    this.views = views;
    this.limits = limits;
  }

  void register(RoutesConfig routes) {
    routes.get(NAMESPACE + "/views", handle(r -> r.ok(
        views.list().listViews(r.scope(), r.namespace(), r.pageToken(), r.pageSize()))));
    routes.post(NAMESPACE + "/views", handle(r -> r.ok(views.create().createView(r.scope(),
        r.namespace(), r.read(CreateViewRequest.class)))));
    routes.get(VIEW, handle(r -> r.ok(views.load().loadView(r.scope(), r.object()))));
    routes.head(VIEW, handle(r -> {
      views.load().loadView(r.scope(), r.object());
      r.noContent();
    }));
    routes.post(VIEW, handle(r -> r.ok(views.replace().replaceView(r.scope(), r.object(),
        r.read(UpdateTableRequest.class)))));
    routes.delete(VIEW, handle(r -> {
      views.drop().dropView(r.scope(), r.object());
      r.noContent();
    }));
    routes.post(NAMESPACE + "/register-view", handle(r -> r.ok(views.register().registerView(
        r.scope(), r.namespace(), r.read(RegisterViewRequest.class)))));
    routes.post(V1 + "/views/rename", handle(r -> {
      views.rename().renameView(r.scope(), r.read(RenameTableRequest.class));
      r.noContent();
    }));
  }

  private Handler handle(Consumer<IcebergRequest> handler) {
    return IcebergPaths.handle(authentication, limits, handler);
  }
}
