package io.floe.application.service.namespace;

import io.floe.application.iceberg.FlatIdentifiers;
import io.floe.application.iceberg.PageToken;
import io.floe.application.model.AuditAction;
import io.floe.application.model.AuditTarget;
import io.floe.application.model.AuditedChange;
import io.floe.application.model.DeleteCommand;
import io.floe.application.port.in.namespace.IcebergNamespacesUseCase;
import io.floe.application.port.out.NamespaceStore;
import io.floe.application.port.out.OrgStore;
import io.floe.application.port.out.UnitOfWork;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.application.service.catalog.CatalogLocator;
import io.floe.application.service.change.ChangePublisher;
import io.floe.application.service.repo.tables.RepoNamespace;
import io.floe.application.service.repo.tables.RepoNamespaces;
import io.floe.application.service.repo.tables.RepoTableRefusals;
import io.floe.domain.Action;
import io.floe.domain.BucketConfig;
import io.floe.domain.CatalogName;
import io.floe.domain.InvalidNameException;
import io.floe.domain.Visibility;
import java.time.Clock;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.UnprocessableEntityException;
import org.apache.iceberg.rest.requests.CreateNamespaceRequest;
import org.apache.iceberg.rest.requests.UpdateNamespacePropertiesRequest;
import org.apache.iceberg.rest.responses.CreateNamespaceResponse;
import org.apache.iceberg.rest.responses.GetNamespaceResponse;
import org.apache.iceberg.rest.responses.ListNamespacesResponse;
import org.apache.iceberg.rest.responses.UpdateNamespacePropertiesResponse;

/**
 * Flat namespaces bound to a bucket, with server-generated prefixes and soft delete, and beside
 * them the versions of the caller's repos ({@link RepoNamespaces}), which engines read and write
 * tables in but manage through the repo. A listing shows the repo versions first ({@code <repo>},
 * {@code <repo>@<branch>}, {@code <repo>@<tag>}), then the plain namespaces; a page token inside
 * the first part is marked by the prefix {@value #REPO_PHASE}, which no namespace name can start
 * with.
 */
public final class NamespaceService implements IcebergNamespacesUseCase {
  static final String REPO_PHASE = "@repos:";

  private final NamespaceStore namespaces;
  private final OrgStore orgs;
  private final NamespaceCreation creation;
  private final NamespaceDeletion deletion;
  private final UnitOfWork unitOfWork;
  private final Clock clock;
  private final AccessPolicy policy;
  private final ChangePublisher publisher;
  private final CatalogLocator locator;
  private final RepoNamespaces repos;

  public NamespaceService(NamespaceStore namespaces, OrgStore orgs, NamespaceCreation creation,
      NamespaceDeletion deletion, UnitOfWork unitOfWork, Clock clock, AccessPolicy policy,
      ChangePublisher publisher, CatalogLocator locator, RepoNamespaces repos) {
    this.namespaces = namespaces;
    this.orgs = orgs;
    this.creation = creation;
    this.deletion = deletion;
    this.unitOfWork = unitOfWork;
    this.clock = clock;
    this.policy = policy;
    this.publisher = publisher;
    this.locator = locator;
    this.repos = repos;
  }

  @Override
  public ListNamespacesResponse list(OrgContext context, Namespace parent, String pageToken,
      Integer pageSize) {
    if (parent != null && !parent.isEmpty()) {
      // Flat namespaces have no children, nor has a repo version; the parent must still exist
      // and be visible.
      locator.eitherNamespace(context, parent, found -> found, repo -> repo);
      return ListNamespacesResponse.builder().build();
    }
    Optional<String> token = PageToken.decode(pageToken);
    if (token.isPresent() && !token.get().startsWith(REPO_PHASE)) {
      return listPlain(context, pageToken, pageSize);
    }
    List<String> repoNames = repos.names(context);
    if (repoNames.isEmpty()) {
      return listPlain(context, null, pageSize);
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
    ListNamespacesResponse rest = listPlain(context, null,
        pageSize == null ? null : room - page.size());
    response.addAll(rest.namespaces());
    if (rest.nextPageToken() != null) {
      response.nextPageToken(rest.nextPageToken());
    }
    return response.build();
  }

  /** One page of the plain namespaces the caller may see. */
  private ListNamespacesResponse listPlain(OrgContext context, String pageToken,
      Integer pageSize) {
    int fetch = PageToken.fetchSize(pageSize);
    List<io.floe.domain.Namespace> rows =
        namespaces.listLive(context.org().id(), policy.listingScope(context),
            PageToken.decode(pageToken), fetch);
    ListNamespacesResponse.Builder response = ListNamespacesResponse.builder();
    boolean more = rows.size() == fetch && pageSize != null;
    List<io.floe.domain.Namespace> page = more ? rows.subList(0, fetch - 1) : rows;
    page.forEach(ns -> response.add(Namespace.of(ns.name().value())));
    if (more) {
      response.nextPageToken(PageToken.encode(page.get(page.size() - 1).name().value()));
    }
    return response.build();
  }

  @Override
  public CreateNamespaceResponse create(OrgContext context, CreateNamespaceRequest request) {
    CatalogName name = FlatIdentifiers.namespaceName(request.namespace());
    Map<String, String> properties = new HashMap<>(request.properties());
    if (properties.containsKey(null) || properties.containsValue(null)) {
      throw new BadRequestException("Property names and values must not be null");
    }
    creation.authorize(context);
    Optional<ChangePublisher.Replay<CreateNamespaceResponse>> replay =
        publisher.replay(context, CreateNamespaceResponse.class);
    if (replay.isPresent()) {
      return replay.get().result();
    }
    return creation.create(context, new NamespaceCreation.Request(name,
            bucketNickname(properties.get(BUCKET_PROPERTY)), properties, Optional.empty(),
            Map.of(), Visibility.PRIVATE),
        (namespace, bucket) -> CreateNamespaceResponse.builder().withNamespace(request.namespace())
            .setProperties(NamespaceProperties.answered(namespace, bucket)).build());
  }

  @Override
  public GetNamespaceResponse load(OrgContext context, Namespace namespace) {
    return GetNamespaceResponse.builder().withNamespace(namespace)
        .setProperties(locator.eitherNamespace(context, namespace,
            found -> NamespaceProperties.answered(found, bucket(found)),
            NamespaceService::properties))
        .build();
  }

  /** What a repo version's namespace tells engines about itself. */
  private static Map<String, String> properties(RepoNamespace repo) {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("floe.repo", repo.repo().name().value());
    properties.put("floe.repo.ref", repo.version().ref());
    properties.put("floe.repo.ref-kind", repo.version().kind().name().toLowerCase());
    properties.put("floe.repo.snapshot-id", repo.version().snapshotId());
    properties.put("floe.repo.read-only", String.valueOf(!repo.isWritable()));
    properties.put("location", repo.rootUri());
    return properties;
  }

  @Override
  public UpdateNamespacePropertiesResponse updateProperties(OrgContext context,
      Namespace namespace, UpdateNamespacePropertiesRequest request) {
    Set<String> removals = new HashSet<>(request.removals());
    Map<String, String> updates = new LinkedHashMap<>(request.updates());
    if (removals.contains(null) || updates.containsKey(null) || updates.containsValue(null)) {
      throw new BadRequestException("Property names and values must not be null; "
          + "remove a property to unset it");
    }
    NamespaceProperties.requireSettable(removals);
    NamespaceProperties.requireSettable(updates.keySet());
    Set<String> both = new HashSet<>(removals);
    both.retainAll(updates.keySet());
    if (!both.isEmpty()) {
      throw new UnprocessableEntityException(
          "Cannot remove and update the same properties at once: %s", both);
    }
    return unitOfWork.inTransaction(() -> {
      io.floe.domain.Namespace found = require(context, namespace, "change the properties of");
      // Properties describe the namespace (its comment is its description): manage's, as are
      // the description and the visibility through the management API.
      policy.require(context, Action.MANAGE, found);
      Optional<ChangePublisher.Replay<UpdateNamespacePropertiesResponse>> replay =
          publisher.replay(context, UpdateNamespacePropertiesResponse.class);
      if (replay.isPresent()) {
        return replay.get().result();
      }
      Set<String> missing = new HashSet<>(removals);
      missing.removeAll(found.properties().keySet());
      Set<String> removed = new HashSet<>(removals);
      removed.removeAll(missing);
      UpdateNamespacePropertiesResponse response = UpdateNamespacePropertiesResponse.builder()
          .addUpdated(updates.keySet()).addRemoved(removed).addMissing(missing).build();
      AuditedChange change = AuditedChange.of(AuditAction.NAMESPACE_SET_PROPERTIES,
          AuditTarget.Kind.NAMESPACE, found.name())
          .with("updated", new TreeSet<>(updates.keySet())).with("removed", new TreeSet<>(removed));
      return publisher.publish(context, change, response, () ->
          namespaces.updateProperties(found.id(), removals, updates, clock.instant()));
    });
  }

  @Override
  public void drop(OrgContext context, Namespace namespace) {
    if (RepoNamespaces.isVersioned(namespace)) {
      require(context, namespace, "drop");
    }
    // Engines' DROP NAMESPACE is always the default soft delete.
    try {
      deletion.delete(context, FlatIdentifiers.namespaceName(namespace), DeleteCommand.SOFT);
    } catch (NoSuchNamespaceException missing) {
      repos.find(context, namespace).ifPresent(repo -> {
        throw RepoTableRefusals.refusedNamespace("drop", repo);
      });
      throw missing;
    }
  }

  /**
   * The live plain namespace, if the caller may see it; otherwise it does not exist for the
   * caller. A version of a repo refuses {@code operation}: it is managed through its repo.
   */
  private io.floe.domain.Namespace require(OrgContext context, Namespace namespace,
      String operation) {
    return locator.eitherNamespace(context, namespace, found -> found, repo -> {
      throw RepoTableRefusals.refusedNamespace(operation, repo);
    });
  }

  private BucketConfig bucket(io.floe.domain.Namespace namespace) {
    return orgs.bucket(namespace.bucketId()).orElseThrow(() -> new IllegalStateException(
        "bucket configuration vanished: " + namespace.bucketId()));
  }

  private static Optional<CatalogName> bucketNickname(String nickname) {
    if (nickname == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(new CatalogName(nickname));
    } catch (InvalidNameException e) {
      throw new BadRequestException("Invalid bucket nickname: %s", e.getMessage());
    }
  }
}
