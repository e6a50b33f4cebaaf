package io.floe.adapters.rest.web;

import io.floe.adapters.rest.web.view.Crumb;
import io.floe.adapters.rest.web.view.MetadataEntry;
import io.floe.adapters.rest.web.view.SnapshotRow;
import io.floe.adapters.rest.web.view.SpecRow;
import io.floe.adapters.rest.web.view.Tab;
import io.floe.adapters.rest.web.view.TablePage;
import io.floe.adapters.rest.web.view.MaintenancePanel;
import io.floe.application.port.in.maintenance.GetMaintenancePolicyUseCase;
import io.floe.application.port.in.maintenance.PolicyTarget;
import io.floe.application.port.in.table.LoadTableUseCase;
import io.floe.application.port.in.table.PreviewTableUseCase;
import io.floe.application.security.OrgContext;
import io.floe.domain.TableIdentifierSyntax;
import io.floe.domain.TableName;
import io.javalin.config.RoutesConfig;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.SortField;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.rest.RESTCatalogProperties.SnapshotMode;

/**
 * The table page, from the table's current metadata as {@code loadTable} gives it to engines
 * (with the same access check, and no storage credentials): the first rows of its current
 * snapshot (read by the server), schema, partition spec, sort order, snapshots with their chart,
 * properties, the maintenance policy that applies and where each setting comes from, and
 * Connect.
 */
final class TableView {
  static final String PATH = NamespaceView.PATH + "/tables/{table}";

  private final WebHandlers handlers;
  private final LoadTableUseCase tables;
  private final PreviewTableUseCase previews;
  private final GetMaintenancePolicyUseCase policies;

  TableView(WebHandlers handlers, LoadTableUseCase tables, PreviewTableUseCase previews,
      GetMaintenancePolicyUseCase policies) {
    this.handlers = handlers;
    this.tables = tables;
    this.previews = previews;
    this.policies = policies;
  }

  void register(RoutesConfig routes) {
    routes.get(PATH, handlers.page(this::show));
  }

  private void show(WebRequest r) {
    OrgContext context = r.scope();
    // A plain namespace, or a repo's (its name, or <repo>@<ref>): the catalog tells them apart.
    String ns = r.path("namespace");
    Optional<String> repo = r.query("repo");
    String name = new TableName(r.path("table")).value();
    TableMetadata metadata = tables.loadTable(context, TableIdentifier.of(ns, name),
        SnapshotMode.ALL, Set.of()).response().tableMetadata();
    String org = context.org().name().value();
    Schema schema = metadata.schema();
    List<Snapshot> history = new ArrayList<>(metadata.snapshots());
    history.sort(Comparator.comparingLong(Snapshot::timestampMillis)
        .thenComparingLong(Snapshot::sequenceNumber));
    Long current = metadata.currentSnapshot() == null ? null
        : metadata.currentSnapshot().snapshotId();
    r.render("table.jte", new TablePage(
        r.chrome(ns + "." + name, List.of(repo.isPresent()
            ? new Crumb(ns, WebPaths.repo(org, repo.get()))
            : new Crumb(ns, WebPaths.namespace(org, ns)), new Crumb(name, null))),
        tabs(r.query("tab").orElse("data")),
        ns, name, new TableIdentifierSyntax(ns, name).format(),
        metadata.location(), Integer.toString(metadata.formatVersion()), metadata.uuid(),
        SchemaRows.of(schema, openedField(r), number(r.query("fields")),
            (field, page) -> schemaPage(org, ns, name, repo, field, page)),
        metadata.spec().fields().stream().map(field -> partition(schema, field)).toList(),
        metadata.sortOrder().fields().stream().map(field -> sort(schema, field)).toList(),
        newestFirst(history, current),
        SnapshotChart.of(history),
        properties(metadata.properties()),
        ConnectSnippets.of(NamespaceView.catalogUri(r.http()), org, ns, Optional.of(name)),
        previews.preview(context, TableIdentifier.of(ns, name)),
        maintenance(context, ns, name, repo)));
  }

  /**
   * The policy that applies, asked of the same use case as the management API: what it refuses
   * this caller, the page says instead of failing.
   */
  private MaintenancePanel maintenance(OrgContext context, String ns, String name,
      Optional<String> repo) {
    if (repo.isPresent()) {
      return MaintenanceRows.unavailable("Tables a repo declares are maintained with their repo.");
    }
    try {
      return MaintenanceRows.of(policies.get(context, PolicyTarget.table(ns, name)));
    } catch (ForbiddenException | NotFoundException | ValidationException e) {
      return MaintenanceRows.unavailable("The maintenance policy cannot be shown to you here.");
    }
  }

  /**
   * The field whose fields the schema browser shows, by its id; a value that is no id asks for
   * none, like a page number that is no number asks for the first page.
   */
  private static Optional<Integer> openedField(WebRequest r) {
    return r.query("field").flatMap(value -> {
      try {
        return Optional.of(Integer.parseInt(value));
      } catch (NumberFormatException e) {
        return Optional.empty();
      }
    });
  }

  private static int number(Optional<String> page) {
    try {
      return Math.max(1, Integer.parseInt(page.orElse("1")));
    } catch (NumberFormatException e) {
      return 1;
    }
  }

  /** A page of the schema browser: of one field's fields, or of the schema for -1. */
  private static String schemaPage(String org, String ns, String name, Optional<String> repo,
      int field, int page) {
    return WebPaths.table(org, ns, name) + "?"
        + repo.map(value -> "repo=" + WebPaths.query(value) + "&").orElse("") + "tab=schema"
        + (field >= 0 ? "&field=" + field : "") + (page > 1 ? "&fields=" + page : "");
  }

  private static List<SnapshotRow> newestFirst(List<Snapshot> history, Long current) {
    List<SnapshotRow> rows = new ArrayList<>();
    history.forEach(snapshot -> rows.add(row(snapshot, current)));
    java.util.Collections.reverse(rows);
    return rows;
  }

  private static SpecRow partition(Schema schema, PartitionField field) {
    return new SpecRow(field.name(), column(schema, field.sourceId()),
        field.transform().toString(), "field id " + field.fieldId());
  }

  private static SpecRow sort(Schema schema, SortField field) {
    return new SpecRow(column(schema, field.sourceId()), column(schema, field.sourceId()),
        field.transform().toString(), field.direction().name().toLowerCase(Locale.ROOT)
            + ", nulls " + field.nullOrder().name().toLowerCase(Locale.ROOT).replace("nulls_", ""));
  }

  private static String column(Schema schema, int id) {
    String name = schema.findColumnName(id);
    return name == null ? "(dropped column " + id + ")" : name;
  }

  private static SnapshotRow row(Snapshot snapshot, Long current) {
    Map<String, String> summary = snapshot.summary() == null ? Map.of() : snapshot.summary();
    java.time.Instant committed = java.time.Instant.ofEpochMilli(snapshot.timestampMillis());
    return new SnapshotRow(Long.toString(snapshot.snapshotId()),
        snapshot.parentId() == null ? "" : Long.toString(snapshot.parentId()),
        Times.shown(committed), Times.iso(committed),
        snapshot.operation() == null ? "" : snapshot.operation(),
        summary.getOrDefault(SnapshotSummary.ADDED_RECORDS_PROP, ""),
        summary.getOrDefault(SnapshotSummary.TOTAL_RECORDS_PROP, ""),
        summary.getOrDefault(SnapshotSummary.TOTAL_DATA_FILES_PROP, ""),
        current != null && current == snapshot.snapshotId());
  }

  private static List<MetadataEntry> properties(Map<String, String> properties) {
    List<MetadataEntry> out = new ArrayList<>();
    new TreeMap<>(properties).forEach((key, value) -> out.add(new MetadataEntry(key, "", value)));
    return out;
  }

  private static List<Tab> tabs(String wanted) {
    List<String> ids = List.of("data", "schema", "snapshots", "properties", "maintenance",
        "connect");
    String open = ids.contains(wanted) ? wanted : "data";
    return ids.stream().map(id -> new Tab(id, Character.toUpperCase(id.charAt(0))
        + id.substring(1), id.equals(open))).toList();
  }
}
