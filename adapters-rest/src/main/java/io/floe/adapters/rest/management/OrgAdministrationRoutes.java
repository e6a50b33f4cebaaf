package io.floe.adapters.rest.management;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.floe.adapters.rest.management.BucketRoutes.BucketBody;
import io.floe.application.port.in.access.AuthenticateUseCase;
import io.floe.application.model.BucketSpec;
import io.floe.application.model.Invalid;
import io.floe.application.port.in.org.OrgAdministrationUseCase;
import io.floe.application.port.in.org.OrgAdministrationUseCase.NewOrg;
import io.floe.application.port.in.org.ProvisionOrgUseCase.ProvisionedOrg;
import io.floe.domain.Org;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The operators' org routes: {@code POST /orgs} creates an org with its default bucket and an
 * admin API client whose token is shown this once; {@code PATCH /orgs/{org}} switches the org's
 * Iceberg feature flag. Who may call them is decided by the application (operators only).
 */
public final class OrgAdministrationRoutes implements Consumer<RoutesConfig> {
  /** An org as an operator sees it. */
  record OrgFlagsBody(String id, String name, boolean icebergEnabled) {
    static OrgFlagsBody of(Org org) {
      return new OrgFlagsBody(org.id().toString(), org.name().value(), org.icebergEnabled());
    }
  }

  /** The new org's admin: an API client. */
  record AdminBody(String id, String kind, String name, String role) {}

  /** A created org; {@code token} is the admin's secret, never shown again. */
  record CreatedOrgBody(String id, String name, boolean icebergEnabled, BucketBody defaultBucket,
      AdminBody admin, String token) {
    static CreatedOrgBody of(ProvisionedOrg created, ManagementRequest request) {
      return new CreatedOrgBody(created.org().id().toString(), created.org().name().value(),
          created.org().icebergEnabled(), BucketRoutes.body(created.defaultBucket(), request),
          new AdminBody(created.admin().id().toString(), "api_client", created.admin().name(),
              "admin"),
          created.token());
    }
  }

  private final AuthenticateUseCase authentication;
  private final OrgAdministrationUseCase administration;

  public OrgAdministrationRoutes(AuthenticateUseCase authentication,
      OrgAdministrationUseCase administration) {
    this.authentication = authentication;
    this.administration = administration;
  }

  @Override
  public void accept(RoutesConfig routes) {
    routes.post("/orgs", handle(r -> {
      var caller = r.caller(); // 401 before the body is looked at
      JsonFields fields = new JsonFields(r.body(JsonNode.class));
      NewOrg org = new NewOrg(
          fields.text("name").orElseThrow(() -> Invalid.because("name is required")),
          fields.bool("iceberg_enabled").orElse(true), defaultBucket(fields));
      r.respond(201, CreatedOrgBody.of(administration.create(caller, r.request(), org), r));
    }));
    routes.patch("/orgs/{org}", handle(r -> {
      var caller = r.caller();
      boolean enabled = new JsonFields(r.body(JsonNode.class)).bool("iceberg_enabled")
          .orElseThrow(() -> Invalid.because("iceberg_enabled is required"));
      r.ok(OrgFlagsBody.of(administration.setIcebergEnabled(caller,
          r.request(), r.http().pathParam("org"), enabled)));
    }));
  }

  /** The body of {@code POST /orgs/{org}/buckets}; the nickname defaults to "default". */
  private static Optional<BucketSpec> defaultBucket(JsonFields fields) {
    JsonNode node = fields.node("default_bucket");
    if (node == null || node.isNull()) {
      return Optional.empty();
    }
    if (!node.isObject()) {
      throw Invalid.because("default_bucket must be a JSON object");
    }
    ObjectNode spec = ((ObjectNode) node).deepCopy();
    if (!spec.hasNonNull("nickname")) {
      spec.put("nickname", "default");
    }
    return Optional.of(BucketRoutes.spec(new JsonFields(spec)));
  }

  private io.javalin.http.Handler handle(Consumer<ManagementRequest> work) {
    return (Context ctx) -> work.accept(new ManagementRequest(ctx, authentication));
  }
}
