package io.floe.adapters.rest.management;

import com.fasterxml.jackson.databind.JsonNode;
import io.floe.application.model.CreateNamespaceCommand;
import io.floe.application.port.in.access.AuthenticateUseCase;
import io.floe.application.port.in.maintenance.MaintainTableUseCase;
import io.floe.application.port.in.maintenance.MaintainTableUseCase.Compaction;
import io.floe.application.port.in.maintenance.MaintainTableUseCase.Expiry;
import io.floe.application.port.in.maintenance.MaintainTableUseCase.ManifestRewriting;
import io.floe.application.port.in.maintenance.MaintainTableUseCase.OrphanRemoval;
import io.floe.application.port.in.maintenance.MaintainTableUseCase.Steps;
import io.floe.domain.DurationBounds;
import io.floe.application.model.Invalid;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * {@code POST /orgs/{org}/iceberg/namespaces/{name}/tables/{table}/maintenance}: runs the
 * maintenance steps the body names on one table now and answers what they did. The body:
 * <pre>
 * {"dry_run": false,
 *  "compact": {"target_file_size_bytes": 536870912, "min_input_files": 2},
 *  "expire_snapshots": {"older_than_seconds": 432000, "retain_last": 5},
 *  "rewrite_manifests": true,
 *  "remove_orphans": {"older_than_seconds": 259200}}
 * </pre>
 * Every field is optional; a body that names no step runs the table's maintenance policy. A
 * malformed body is a 4xx.
 */
public final class TableMaintenanceRoutes implements Consumer<RoutesConfig> {
  public static final String PATH =
      "/orgs/{org}/iceberg/namespaces/{name}/tables/{table}/maintenance";
  private static final int MAX_TABLE_NAME = 1000;

  private final AuthenticateUseCase authentication;
  private final MaintainTableUseCase maintenance;

  public TableMaintenanceRoutes(AuthenticateUseCase authentication,
      MaintainTableUseCase maintenance) {
    this.authentication = authentication;
    this.maintenance = maintenance;
  }

  @Override
  public void accept(RoutesConfig routes) {
    routes.post(PATH, (Context ctx) -> {
      ManagementRequest r = new ManagementRequest(ctx, authentication);
      var scope = r.scope();
      TableIdentifier table = table(r);
      Steps steps = steps(new JsonFields(r.body(JsonNode.class)));
      r.ok(maintenance.maintain(scope, table, steps));
    });
  }

  static TableIdentifier table(ManagementRequest r) {
    String namespace = CreateNamespaceCommand.name(r.http().pathParam("name"), "namespace name")
        .value();
    return TableIdentifier.of(Namespace.of(namespace), tableName(r));
  }

  /** The table named in the path: 1 to 1000 printable characters (the catalog has the rest). */
  static String tableName(ManagementRequest r) {
    String name = r.http().pathParam("table");
    if (name.isEmpty() || name.length() > MAX_TABLE_NAME
        || name.chars().anyMatch(Character::isISOControl)) {
      throw Invalid.because("the table name must be 1 to " + MAX_TABLE_NAME
          + " printable characters");
    }
    return name;
  }

  static Steps steps(JsonFields body) {
    Optional<Compaction> compact = object(body, "compact").map(fields -> new Compaction(
        fields.nonNegativeLong("target_file_size_bytes")
            .orElse(MaintainTableUseCase.DEFAULT_TARGET_FILE_SIZE),
        (int) Math.min(Integer.MAX_VALUE, fields.nonNegativeLong("min_input_files")
            .orElse((long) MaintainTableUseCase.DEFAULT_MIN_INPUT_FILES))));
    Optional<Expiry> expire = object(body, "expire_snapshots").map(fields -> new Expiry(
        seconds(fields, "older_than_seconds").orElse(Duration.ZERO),
        (int) Math.min(Integer.MAX_VALUE, fields.nonNegativeLong("retain_last").orElse(1L))));
    Optional<OrphanRemoval> orphans = object(body, "remove_orphans").map(fields ->
        new OrphanRemoval(seconds(fields, "older_than_seconds")
            .orElse(MaintainTableUseCase.DEFAULT_ORPHAN_GRACE)));
    Optional<ManifestRewriting> manifests = body.bool("rewrite_manifests").orElse(false)
        ? Optional.of(ManifestRewriting.ALWAYS) : Optional.empty();
    return new Steps(compact, expire, manifests, orphans, body.bool("dry_run").orElse(false));
  }

  /** A step's settings: absent or null means the step is not run; anything but an object is a 400. */
  private static Optional<JsonFields> object(JsonFields body, String field) {
    JsonNode node = body.node(field);
    if (node == null || node.isNull()) {
      return Optional.empty();
    }
    if (!node.isObject()) {
      throw Invalid.because(field + " must be a JSON object");
    }
    return Optional.of(new JsonFields(node));
  }

  private static Optional<Duration> seconds(JsonFields fields, String field) {
    return fields.nonNegativeLong(field).map(seconds -> DurationBounds.ofSeconds(seconds, field));
  }
}
