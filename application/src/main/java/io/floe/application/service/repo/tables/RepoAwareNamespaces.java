package io.floe.application.service.repo.tables;

import io.floe.application.iceberg.PageToken;
import io.floe.application.port.in.namespace.IcebergNamespacesUseCase;
import io.floe.application.security.OrgContext;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.rest.requests.CreateNamespaceRequest;
import org.apache.iceberg.rest.requests.UpdateNamespacePropertiesRequest;
import org.apache.iceberg.rest.responses.CreateNamespaceResponse;
import org.apache.iceberg.rest.responses.GetNamespaceResponse;
import org.apache.iceberg.rest.responses.ListNamespacesResponse;
import org.apache.iceberg.rest.responses.UpdateNamespacePropertiesResponse;

/**
 * Namespaces as engines see them, with the caller's repo versions among them. A listing shows
 * the repo versions first ({@code <repo>}, {@code <repo>@<branch>}, {@code <repo>@<tag>}), then
 * the plain namespaces exactly as before; a page token inside the first part is marked by the
 * prefix {@value #REPO_PHASE}, which no namespace name can start with.
 */
public final class RepoAwareNamespaces implements IcebergNamespacesUseCase {
  static final String REPO_PHASE = "@repos:";

  private final IcebergNamespacesUseCase plain;
  private final RepoRouting routing;

  public RepoAwareNamespaces(IcebergNamespacesUseCase plain, RepoRouting routing) {
    this.plain = plain;
    this.routing = routing;
  }

  @Override
  public ListNamespacesResponse list(OrgContext context, Namespace parent, String pageToken,
      Integer pageSize) {
    if (parent != null && !parent.isEmpty()) {
      // Namespaces are flat: a repo version has no children either.
      return routing.route(context, parent, () -> plain.list(context, parent, pageToken, pageSize),
          repo -> ListNamespacesResponse.builder().build());
    }
    Optional<String> token = PageToken.decode(pageToken);
    if (token.isPresent() && !token.get().startsWith(REPO_PHASE)) {
      return plain.list(context, parent, pageToken, pageSize);
    }
    List<String> repoNames = routing.namespaces().names(context);
    if (repoNames.isEmpty()) {
      return plain.list(context, parent, null, pageSize);
    }
    String after = token.map(t -> t.substring(REPO_PHASE.length())).orElse(null);
    List<String> remaining = repoNames.stream()
        .filter(name -> after == null || String.CASE_INSENSITIVE_ORDER.compare(name, after) > 0)
        .toList();
    ListNamespacesResponse.Builder response = ListNamespacesResponse.builder();
    int room = pageSize == null ? Integer.MAX_VALUE : PageToken.fetchSize(pageSize) - 1;
    List<String> page = remaining.subList(0, Math.min(room, remaining.size()));
    page.forEach(name -> response.add(Namespace.of(name)));
    if (page.size() == room) {
      // A full page: the next one continues after the last repo version shown.
      return response.nextPageToken(PageToken.encode(REPO_PHASE + page.get(page.size() - 1)))
          .build();
    }
    ListNamespacesResponse rest = plain.list(context, parent, null,
        pageSize == null ? null : room - page.size());
    response.addAll(rest.namespaces());
    if (rest.nextPageToken() != null) {
      response.nextPageToken(rest.nextPageToken());
    }
    return response.build();
  }

  @Override
  public CreateNamespaceResponse create(OrgContext context, CreateNamespaceRequest request) {
    return plain.create(context, request);
  }

  @Override
  public GetNamespaceResponse load(OrgContext context, Namespace namespace) {
    return routing.route(context, namespace, () -> plain.load(context, namespace),
        repo -> GetNamespaceResponse.builder().withNamespace(namespace)
            .setProperties(properties(repo)).build());
  }

  @Override
  public UpdateNamespacePropertiesResponse updateProperties(OrgContext context,
      Namespace namespace, UpdateNamespacePropertiesRequest request) {
    return routing.route(context, namespace,
        () -> plain.updateProperties(context, namespace, request),
        repo -> {
          throw refused("change the properties of", repo);
        });
  }

  @Override
  public void drop(OrgContext context, Namespace namespace) {
    routing.run(context, namespace, () -> plain.drop(context, namespace), repo -> {
      throw refused("drop", repo);
    });
  }

  /** What a repo version's namespace tells engines about itself. */
  static Map<String, String> properties(RepoNamespace repo) {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("floe.repo", repo.repo().name().value());
    properties.put("floe.repo.ref", repo.version().ref());
    properties.put("floe.repo.ref-kind", repo.version().kind().name().toLowerCase());
    properties.put("floe.repo.snapshot-id", repo.version().snapshotId());
    properties.put("floe.repo.read-only", String.valueOf(!repo.isWritable()));
    properties.put("location", repo.rootUri());
    return properties;
  }

  private static ForbiddenException refused(String what, RepoNamespace repo) {
    return new ForbiddenException("Cannot %s %s: it is a version of repo %s; manage the repo "
        + "through /orgs/{org}/repos (or floe repos)", what, repo.namespace(), repo.repo().name());
  }
}
