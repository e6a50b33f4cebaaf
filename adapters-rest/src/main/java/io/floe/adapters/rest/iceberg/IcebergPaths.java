package io.floe.adapters.rest.iceberg;

import io.floe.application.iceberg.MetadataLimits;
import io.floe.application.port.in.access.AuthenticateUseCase;
import io.javalin.http.Handler;
import java.util.function.Consumer;

/** The Iceberg REST catalog's route templates, and how a route's handler gets its request. */
final class IcebergPaths {
  static final String ROOT = "/iceberg";
  static final String V1 = ROOT + "/v1/{prefix}";
  static final String NAMESPACE = V1 + "/namespaces/{namespace}";
  static final String TABLE = NAMESPACE + "/tables/{table}";
  static final String VIEW = NAMESPACE + "/views/{view}";

  private IcebergPaths() {}

  static Handler handle(AuthenticateUseCase authentication, MetadataLimits limits,
      Consumer<IcebergRequest> handler) {
    return ctx -> handler.accept(new IcebergRequest(ctx, authentication, limits));
  }
}
