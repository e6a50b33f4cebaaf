package io.floe.adapters.rest.web;

import io.floe.adapters.rest.iceberg.IcebergRoutes;
import io.floe.adapters.rest.web.view.Crumb;
import io.floe.adapters.rest.web.view.GrantRow;
import io.floe.adapters.rest.web.view.MetadataEntry;
import io.floe.adapters.rest.web.view.NamespacePage;
import io.floe.adapters.rest.web.view.Option;
import io.floe.adapters.rest.web.view.Paging;
import io.floe.adapters.rest.web.view.Tab;
import io.floe.adapters.rest.web.view.TableRow;
import io.floe.application.model.CreateNamespaceCommand;
import io.floe.application.model.ListingSort;
import io.floe.application.model.NamespaceDetails;
import io.floe.application.model.Page;
import io.floe.application.model.PageRequest;
import io.floe.application.model.SortDirection;
import io.floe.application.model.TableQuery;
import io.floe.application.model.TableSummary;
import io.floe.application.port.in.access.GrantsUseCase;
import io.floe.application.port.in.access.MembersUseCase;
import io.floe.application.port.in.namespace.NamespaceManagementUseCase;
import io.floe.application.port.in.view.ListViewsUseCase;
import io.floe.application.security.OrgContext;
import io.floe.domain.Action;
import io.floe.domain.CatalogName;
import io.floe.domain.Namespace;
import io.floe.domain.TableIdentifierSyntax;
import io.javalin.http.Context;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Renders the namespace page from the management use cases: what the caller may see of it, and
 * the Settings and Access tabs' forms only when it may manage it.
 */
final class NamespaceView {
  static final String PATH = OrgHome.PATH + "/namespaces/{namespace}";
  private static final int TABLES_PER_PAGE = 50;
  private static final int VIEWS_SHOWN = 100;

  private final NamespaceManagementUseCase namespaces;
  private final ListViewsUseCase views;
  private final GrantsUseCase grants;
  private final MembersUseCase members;

  NamespaceView(NamespaceManagementUseCase namespaces, ListViewsUseCase views,
      GrantsUseCase grants, MembersUseCase members) {
    this.namespaces = namespaces;
    this.views = views;
    this.grants = grants;
    this.members = members;
  }

  static CatalogName name(WebRequest r) {
    return CreateNamespaceCommand.name(r.path("namespace"), "namespace name");
  }

  void show(WebRequest r) {
    OrgContext context = r.scope();
    NamespaceDetails details = namespaces.get(context, name(r));
    Namespace namespace = details.namespace();
    String org = context.org().name().value();
    String ns = namespace.name().value();
    String base = WebPaths.namespace(org, ns);
    boolean canManage = details.effectiveActions().contains(Action.MANAGE);
    int page = tablePage(r);
    Page<TableSummary> tables = namespaces.tables(context, namespace.name(), TableQuery.of(
        Optional.empty(), Optional.of(ListingSort.NAME), SortDirection.ASC,
        new PageRequest(page, TABLES_PER_PAGE)));
    List<TableRow> tableRows = tables.items().stream().map(summary -> new TableRow(
        summary.table().name().value(),
        WebPaths.table(org, ns, summary.table().name().value()),
        new TableIdentifierSyntax(ns, summary.table().name().value()).format(),
        Times.shown(summary.table().updatedAt()), Times.iso(summary.table().updatedAt())))
        .toList();
    List<TableRow> viewRows = views.listViews(context, icebergNamespace(ns), null, VIEWS_SHOWN)
        .identifiers().stream()
        .map(view -> new TableRow(view.name(), null,
            new TableIdentifierSyntax(ns, view.name()).format(), "", ""))
        .toList();
    Paging paging = new Paging(tables.page(), tables.pages(), tables.total(),
        tables.page() > 1 ? base + "?page=" + (tables.page() - 1) : null,
        tables.page() < tables.pages() ? base + "?page=" + (tables.page() + 1) : null);
    r.render("namespace.jte", new NamespacePage(
        r.chrome(ns, List.of(new Crumb(ns, null))),
        tabs(r.query("tab").orElse("tables"), canManage),
        ns,
        namespace.effectiveDescription().orElse(""),
        namespace.description().orElse(""),
        OrgHome.entries(namespace.metadata()),
        MetadataText.format(namespace.metadata()),
        properties(namespace),
        details.bucketNickname(),
        namespace.visibility().name().toLowerCase(Locale.ROOT).replace('_', ' '),
        details.tableCount(),
        tableRows, paging, viewRows, canManage,
        base + "/settings", base + "/delete",
        canManage ? grantRows(context, namespace, base) : List.of(),
        canManage ? principals(context) : List.of(),
        actions(),
        tableRows.stream().map(TableRow::name).toList(),
        base + "/grants",
        ConnectSnippets.of(catalogUri(r.http()), org, ns, Optional.empty())));
  }

  private List<GrantRow> grantRows(OrgContext context, Namespace namespace, String base) {
    return grants.grants(context, Optional.of(namespace.name()), Optional.empty()).stream()
        .map(grant -> new GrantRow(grant.principalName(),
            grant.table().map(table -> "table " + table).orElse("whole namespace"),
            grant.action().name().toLowerCase(Locale.ROOT), Times.shown(grant.createdAt()),
            base + "/grants/" + grant.id() + "/remove"))
        .toList();
  }

  private List<Option> principals(OrgContext context) {
    return members.members(context, Optional.empty()).stream()
        .map(member -> new Option(member.principal().id().toString(),
            member.principal().name() + " ("
                + member.principal().kind().name().toLowerCase(Locale.ROOT).replace('_', ' ')
                + ")", false))
        .toList();
  }

  private static List<Option> actions() {
    List<Option> out = new ArrayList<>();
    for (Action action : Action.values()) {
      String value = action.name().toLowerCase(Locale.ROOT);
      out.add(new Option(value, value, action == Action.READ));
    }
    return out;
  }

  private static List<MetadataEntry> properties(Namespace namespace) {
    List<MetadataEntry> out = new ArrayList<>();
    new TreeMap<>(namespace.properties()).forEach((key, value) ->
        out.add(new MetadataEntry(key, "", value)));
    return out;
  }

  private static List<Tab> tabs(String wanted, boolean canManage) {
    List<String> ids = new ArrayList<>(List.of("tables", "settings"));
    if (canManage) {
      ids.add("access");
    }
    ids.add("connect");
    String open = ids.contains(wanted) ? wanted : "tables";
    List<Tab> out = new ArrayList<>();
    for (String id : ids) {
      out.add(new Tab(id, switch (id) {
        case "tables" -> "Tables";
        case "settings" -> "Settings";
        case "access" -> "Access";
        default -> "Connect";
      }, id.equals(open)));
    }
    return out;
  }

  private static int tablePage(WebRequest r) {
    try {
      return Math.max(1, Integer.parseInt(r.query("page").orElse("1")));
    } catch (NumberFormatException e) {
      return 1;
    }
  }

  private static org.apache.iceberg.catalog.Namespace icebergNamespace(String name) {
    return org.apache.iceberg.catalog.Namespace.of(name);
  }

  /** This server's catalog as the browser reaches it. */
  static String catalogUri(Context ctx) {
    return ctx.scheme() + "://" + ctx.host() + IcebergRoutes.ROOT;
  }
}
