package io.floe.adapters.rest.web;

import io.floe.adapters.rest.web.view.MetadataEntry;
import io.floe.adapters.rest.web.view.NamespaceRow;
import io.floe.adapters.rest.web.view.Option;
import io.floe.adapters.rest.web.view.OrgHomePage;
import io.floe.adapters.rest.web.view.Paging;
import io.floe.adapters.rest.web.view.RepoRow;
import io.floe.application.model.CreateNamespaceCommand;
import io.floe.application.model.ListingSort;
import io.floe.application.model.NamespaceDetails;
import io.floe.application.model.NamespaceQuery;
import io.floe.application.model.Page;
import io.floe.application.model.PageRequest;
import io.floe.application.model.RepoDetails;
import io.floe.application.model.SortDirection;
import io.floe.application.port.in.namespace.NamespaceManagementUseCase;
import io.floe.application.model.VisibleBucket;
import io.floe.application.port.in.org.BucketManagementUseCase;
import io.floe.application.port.in.repo.RepoDirectoryUseCase;
import io.floe.application.security.OrgContext;
import io.floe.domain.Action;
import io.floe.domain.MetadataValue;
import io.floe.domain.Namespace;
import io.floe.domain.Visibility;
import io.javalin.config.RoutesConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.iceberg.exceptions.ForbiddenException;

/**
 * The org home: its namespaces and repos side by side. The namespaces come from the management
 * API's own listing (search, metadata filter, sort, paging, restorable ghosts), so that the page
 * shows exactly what {@code GET .../namespaces/paginated} would.
 */
final class OrgHome {
  static final String PATH = WebPaths.ORGS + "/{org}";
  private static final int PAGE_SIZE = 20;

  private final WebHandlers handlers;
  private final NamespaceManagementUseCase namespaces;
  private final RepoDirectoryUseCase repos;
  private final BucketManagementUseCase buckets;

  OrgHome(WebHandlers handlers, NamespaceManagementUseCase namespaces,
      RepoDirectoryUseCase repos, BucketManagementUseCase buckets) {
    this.handlers = handlers;
    this.namespaces = namespaces;
    this.repos = repos;
    this.buckets = buckets;
  }

  void register(RoutesConfig routes) {
    routes.get(PATH, handlers.page(this::show));
    routes.post(PATH + "/namespaces", handlers.form(this::create, this::show));
  }

  void show(WebRequest r) {
    OrgContext context = r.scope();
    String search = r.query("q").orElse("");
    String filter = r.query("filter").orElse("");
    boolean ghosts = r.query("ghosts").isPresent();
    Optional<ListingSort> sort = Optional.empty();
    Page<NamespaceDetails> listed;
    try {
      sort = r.query("sort").flatMap(ListingSort::parse);
      listed = namespaces.search(context, NamespaceQuery.of(Optional.of(search),
          MetadataText.parseFilter(filter), sort,
          SortDirection.parse(r.query("direction").orElse(null)), ghosts,
          new PageRequest(pageNumber(r), PAGE_SIZE)));
    } catch (org.apache.iceberg.exceptions.UnprocessableEntityException e) {
      // A listing the inputs do not allow (a sort that needs a search, say): say why, and show
      // the plain listing instead.
      r.problem(e.getMessage());
      sort = Optional.empty();
      listed = namespaces.search(context, NamespaceQuery.of(Optional.empty(), Map.of(),
          Optional.empty(), SortDirection.parse(null), ghosts, new PageRequest(1, PAGE_SIZE)));
    }
    String org = context.org().name().value();
    String base = WebPaths.org(org);
    Map<String, String> params = new LinkedHashMap<>();
    params.put("q", search);
    params.put("filter", filter);
    sort.ifPresent(chosen -> params.put("sort", chosen.wireName()));
    r.query("direction").ifPresent(chosen -> params.put("direction", chosen));
    if (ghosts) {
      params.put("ghosts", "1");
    }
    Paging paging = new Paging(listed.page(), listed.pages(), listed.total(),
        listed.page() > 1 ? href(base, params, listed.page() - 1) : null,
        listed.page() < listed.pages() ? href(base, params, listed.page() + 1) : null);
    Optional<List<RepoDetails>> visibleRepos = reposOf(context);
    boolean canCreate = context.isAdmin();
    r.render("org.jte", new OrgHomePage(
        r.chrome(org, List.of()),
        base, search, filter,
        options(List.of("", "updated", "created", "name", "tables", "relevance"),
            sort.map(ListingSort::wireName).orElse(""),
            List.of("Default", "Last updated", "Created", "Name", "Tables", "Relevance")),
        options(List.of("", "asc", "desc"), r.query("direction").orElse(""),
            List.of("Default", "Ascending", "Descending")),
        ghosts,
        listed.items().stream().map(details -> row(org, details)).toList(),
        paging,
        visibleRepos.isPresent(),
        visibleRepos.orElse(List.of()).stream().map(repo -> repoRow(org, repo)).toList(),
        canCreate,
        canCreate ? bucketOptions(context) : List.of()));
  }

  private void create(WebRequest r) {
    OrgContext context = r.scope();
    NamespaceDetails created = namespaces.create(context, new CreateNamespaceCommand(
        CreateNamespaceCommand.name(r.form("name").orElse(""), "namespace name"),
        r.form("bucket").map(nickname -> CreateNamespaceCommand.name(nickname, "bucket")),
        r.form("description"), Map.of(), Map.of(), Visibility.PRIVATE));
    r.redirect(WebPaths.namespace(context.org().name().value(),
        created.namespace().name().value()) + "?done=created");
  }

  /** Only admins use repos for now; for everyone else the column is not there at all. */
  private Optional<List<RepoDetails>> reposOf(OrgContext context) {
    try {
      return Optional.of(repos.list(context));
    } catch (ForbiddenException e) {
      return Optional.empty();
    }
  }

  private List<Option> bucketOptions(OrgContext context) {
    List<Option> out = new ArrayList<>();
    buckets.list(context).stream().map(VisibleBucket::bucket).forEach(bucket ->
        out.add(new Option(bucket.nickname().value(),
            bucket.nickname().value() + (bucket.isDefault() ? " (default)" : ""),
            bucket.isDefault())));
    return out;
  }

  static NamespaceRow row(String org, NamespaceDetails details) {
    Namespace namespace = details.namespace();
    return new NamespaceRow(namespace.name().value(),
        WebPaths.namespace(org, namespace.name().value()),
        namespace.effectiveDescription().orElse(""), entries(namespace.metadata()),
        details.tableCount(), Times.shown(namespace.updatedAt()),
        Times.iso(namespace.updatedAt()), namespace.isDeleted(),
        namespace.isDeleted() && details.effectiveActions().contains(Action.MANAGE));
  }

  static List<MetadataEntry> entries(Map<String, MetadataValue> metadata) {
    List<MetadataEntry> out = new ArrayList<>();
    new TreeMap<>(metadata).forEach((key, value) -> out.add(
        new MetadataEntry(key, MetadataText.type(value), MetadataText.value(value))));
    return out;
  }

  private static RepoRow repoRow(String org, RepoDetails details) {
    return new RepoRow(details.repo().name().value(),
        WebPaths.repo(org, details.repo().name().value()),
        details.repo().description().orElse(""), Times.shown(details.repo().createdAt()),
        Times.iso(details.repo().createdAt()));
  }

  private static List<Option> options(List<String> values, String chosen, List<String> labels) {
    List<Option> out = new ArrayList<>();
    for (int i = 0; i < values.size(); i++) {
      out.add(new Option(values.get(i), labels.get(i), values.get(i).equals(chosen)));
    }
    return out;
  }

  private static int pageNumber(WebRequest r) {
    try {
      return Math.max(1, Integer.parseInt(r.query("page").orElse("1")));
    } catch (NumberFormatException e) {
      return 1;
    }
  }

  private static String href(String base, Map<String, String> params, int page) {
    StringBuilder out = new StringBuilder(base).append("?page=").append(page);
    params.forEach((key, value) -> {
      if (!value.isEmpty()) {
        out.append('&').append(key).append('=').append(WebPaths.query(value));
      }
    });
    return out.toString();
  }
}
