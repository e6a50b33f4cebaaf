package io.floe.adapters.rest.web;

import io.floe.adapters.rest.management.ManagementJson;
import io.floe.adapters.rest.web.view.Crumb;
import io.floe.adapters.rest.web.view.MetadataEntry;
import io.floe.adapters.rest.web.view.Option;
import io.floe.adapters.rest.web.view.RepoPage;
import io.floe.adapters.rest.web.view.Tab;
import io.floe.application.model.RepoDetails;
import io.floe.application.port.in.repo.BrowseRepoUseCase;
import io.floe.application.port.in.repo.RepoDirectoryUseCase;
import io.floe.application.security.OrgContext;
import io.floe.domain.RepoNode;
import io.floe.domain.RepoRefs;
import io.floe.domain.RepoTables;
import io.javalin.config.RoutesConfig;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A repo's page, read through the repo use cases (which decide who may): refs, the log of the
 * chosen ref, the group tree (at most {@value #MAX_NODES} nodes, depth first) and the declared
 * Iceberg tables.
 */
final class RepoView {
  static final String PATH = OrgHome.PATH + "/repos/{repo}";
  private static final int LOG_LENGTH = 50;
  private static final int MAX_NODES = 200;

  private final WebHandlers handlers;
  private final RepoDirectoryUseCase repos;
  private final BrowseRepoUseCase browse;

  RepoView(WebHandlers handlers, RepoDirectoryUseCase repos, BrowseRepoUseCase browse) {
    this.handlers = handlers;
    this.repos = repos;
    this.browse = browse;
  }

  void register(RoutesConfig routes) {
    routes.get(PATH, handlers.page(this::show));
  }

  private void show(WebRequest r) {
    OrgContext context = r.scope();
    String name = r.path("repo");
    RepoDetails details = repos.get(context, name);
    String org = context.org().name().value();
    String base = WebPaths.repo(org, details.repo().name().value());
    String ref = r.query("ref").orElse(BrowseRepoUseCase.DEFAULT_REF);
    RepoRefs refs = browse.refs(context, name);
    List<Option> refOptions = new ArrayList<>();
    refs.branches().forEach(branch -> refOptions.add(new Option(branch.name(),
        "branch " + branch.name(), branch.name().equals(ref))));
    refs.tags().forEach(tag -> refOptions.add(new Option(tag.name(), "tag " + tag.name(),
        tag.name().equals(ref))));
    List<RepoPage.NodeRow> nodes = new ArrayList<>();
    boolean cut = tree(context, name, ref, nodes);
    RepoTables tables = browse.tables(context, name, ref);
    r.render("repo.jte", new RepoPage(
        r.chrome(details.repo().name().value(),
            List.of(new Crumb(details.repo().name().value(), null))),
        tabs(r.query("tab").orElse("log")),
        details.repo().name().value(),
        details.repo().description().orElse(""),
        details.locationUri(), details.bucketNickname(), ref, base, refOptions,
        refs.branches().stream().map(pointer -> refRow(base, pointer)).toList(),
        refs.tags().stream().map(pointer -> refRow(base, pointer)).toList(),
        browse.log(context, name, ref, LOG_LENGTH).stream().map(commit ->
            new RepoPage.CommitRow(commit.snapshotId(), commit.message(),
                Times.shown(commit.writtenAt()), Times.iso(commit.writtenAt()),
                json(commit.metadata()))).toList(),
        nodes, cut,
        tables.tables().stream().map(table -> new RepoPage.RepoTableRow(table.name(),
            table.group(), table.location(), table.metadataLocation().orElse("(missing)")))
            .toList(),
        tables.problems()));
  }

  /** Walks the tree depth first from the root; returns whether it stopped at the limit. */
  private boolean tree(OrgContext context, String repo, String ref,
      List<RepoPage.NodeRow> out) {
    Deque<String> pending = new ArrayDeque<>();
    pending.push("/");
    while (!pending.isEmpty()) {
      if (out.size() == MAX_NODES) {
        return true;
      }
      RepoNode node = browse.node(context, repo, ref, pending.pop());
      out.add(row(node));
      List<String> children = new ArrayList<>(node.children());
      for (int i = children.size() - 1; i >= 0; i--) {
        pending.push(children.get(i));
      }
    }
    return false;
  }

  private static RepoPage.NodeRow row(RepoNode node) {
    String path = node.path();
    int depth = path.equals("/") ? 0 : (int) path.chars().filter(c -> c == '/').count();
    String name = path.equals("/") ? "/" : path.substring(path.lastIndexOf('/') + 1);
    Map<String, Object> zarr = node.zarrMetadata();
    return new RepoPage.NodeRow(depth, path, name,
        node.kind() == RepoNode.Kind.ARRAY ? "array" : "group",
        text(zarr.get("shape")), text(chunkShape(zarr)), text(zarr.get("data_type")),
        node.attributes().size());
  }

  private static Object chunkShape(Map<String, Object> zarr) {
    if (zarr.get("chunk_grid") instanceof Map<?, ?> grid
        && grid.get("configuration") instanceof Map<?, ?> configuration) {
      return configuration.get("chunk_shape");
    }
    return null;
  }

  private static String text(Object value) {
    if (value == null) {
      return "";
    }
    if (value instanceof List<?> list) {
      return String.join(" × ", list.stream().map(String::valueOf).toList());
    }
    return value instanceof String s ? s : ManagementJson.write(value);
  }

  private static List<MetadataEntry> json(Map<String, Object> metadata) {
    List<MetadataEntry> out = new ArrayList<>();
    new TreeMap<>(metadata).forEach((key, value) -> out.add(new MetadataEntry(key, "",
        value instanceof String s ? s : ManagementJson.write(value))));
    return out;
  }

  private static RepoPage.RefRow refRow(String base, RepoRefs.Pointer pointer) {
    return new RepoPage.RefRow(pointer.name(), pointer.snapshotId(),
        base + "?ref=" + WebPaths.query(pointer.name()));
  }

  private static List<Tab> tabs(String wanted) {
    List<String> ids = List.of("log", "tree", "refs", "tables");
    String open = ids.contains(wanted) ? wanted : "log";
    List<String> labels = List.of("Commits", "Tree", "Branches & tags", "Iceberg tables");
    List<Tab> out = new ArrayList<>();
    for (int i = 0; i < ids.size(); i++) {
      out.add(new Tab(ids.get(i), labels.get(i), ids.get(i).equals(open)));
    }
    return out;
  }
}
