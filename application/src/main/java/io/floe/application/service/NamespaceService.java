package io.floe.application.service;

import io.floe.application.iceberg.FlatIdentifiers;
import io.floe.application.iceberg.PageToken;
import io.floe.application.port.in.IcebergNamespacesUseCase;
import io.floe.application.port.out.IdGenerator;
import io.floe.application.port.out.NameRegistry;
import io.floe.application.port.out.NamespaceStore;
import io.floe.application.port.out.OrgStore;
import io.floe.application.port.out.UnitOfWork;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.domain.Action;
import io.floe.domain.BucketConfig;
import io.floe.domain.CatalogName;
import io.floe.domain.InvalidNameException;
import io.floe.domain.PrefixClaim;
import io.floe.domain.PrefixGenerator;
import io.floe.domain.StoragePath;
import io.floe.domain.Visibility;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.NamespaceNotEmptyException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.UnprocessableEntityException;
import org.apache.iceberg.rest.requests.CreateNamespaceRequest;
import org.apache.iceberg.rest.requests.UpdateNamespacePropertiesRequest;
import org.apache.iceberg.rest.responses.CreateNamespaceResponse;
import org.apache.iceberg.rest.responses.GetNamespaceResponse;
import org.apache.iceberg.rest.responses.ListNamespacesResponse;
import org.apache.iceberg.rest.responses.UpdateNamespacePropertiesResponse;

/** Flat namespaces bound to a bucket, with server-generated prefixes and soft delete. */
public final class NamespaceService implements IcebergNamespacesUseCase {
  private final OrgStore orgs;
  private final NamespaceStore namespaces;
  private final NameRegistry names;
  private final PrefixClaimer claimer;
  private final UnitOfWork unitOfWork;
  private final IdGenerator ids;
  private final Clock clock;
  private final AccessPolicy policy;
  private final Duration recoveryPeriod;
  private final PrefixGenerator prefixes;

  public NamespaceService(OrgStore orgs, NamespaceStore namespaces, NameRegistry names,
      PrefixClaimer claimer, UnitOfWork unitOfWork, IdGenerator ids, Clock clock,
      AccessPolicy policy, Duration recoveryPeriod) {
    this.orgs = orgs;
    this.namespaces = namespaces;
    this.names = names;
    this.claimer = claimer;
    this.unitOfWork = unitOfWork;
    this.ids = ids;
    this.clock = clock;
    this.policy = policy;
    this.recoveryPeriod = recoveryPeriod;
    this.prefixes = new PrefixGenerator(ids::randomBelow);
  }

  @Override
  public ListNamespacesResponse list(OrgContext context, Namespace parent, String pageToken,
      Integer pageSize) {
    if (parent != null && !parent.isEmpty()) {
      // Flat namespaces have no children; the parent must still exist and be visible.
      require(context, parent);
      return ListNamespacesResponse.builder().build();
    }
    int fetch = PageToken.fetchSize(pageSize);
    List<io.floe.domain.Namespace> rows =
        namespaces.listLive(context.org().id(), PageToken.decode(pageToken), fetch);
    ListNamespacesResponse.Builder response = ListNamespacesResponse.builder();
    boolean more = rows.size() == fetch && pageSize != null;
    List<io.floe.domain.Namespace> page = more ? rows.subList(0, fetch - 1) : rows;
    page.stream().filter(ns -> policy.canSee(context, ns))
        .forEach(ns -> response.add(Namespace.of(ns.name().value())));
    if (more) {
      response.nextPageToken(PageToken.encode(page.get(page.size() - 1).name().value()));
    }
    return response.build();
  }

  @Override
  public CreateNamespaceResponse create(OrgContext context, CreateNamespaceRequest request) {
    CatalogName name = FlatIdentifiers.namespaceName(request.namespace());
    context.org().requireIceberg();
    policy.requireAdmin(context, "create namespaces");
    Map<String, String> properties = request.properties();
    BucketConfig bucket = chooseBucket(context, properties.get(BUCKET_PROPERTY));
    Instant now = clock.instant();
    io.floe.domain.Namespace namespace = new io.floe.domain.Namespace(ids.newId(),
        context.org().id(), name, bucket.id(), prefixes.namespacePrefix(bucket, name), properties,
        Optional.empty(), Map.of(), Visibility.PRIVATE, now, now, Optional.empty());
    try {
      unitOfWork.inTransaction(() -> {
        names.reserve(context.org().id(), name, PrefixClaim.OwnerKind.NAMESPACE, namespace.id())
            .ifPresent(holder -> {
              throw new AlreadyExistsException(holder.kind() == PrefixClaim.OwnerKind.REPO
                  ? "Name '%s' is taken by a repo of this org" : "Namespace already exists: %s",
                  name);
            });
        namespaces.insert(namespace);
        claimer.claim(bucket, new PrefixClaim(bucket.id(), namespace.prefix(),
            new PrefixClaim.Owner(PrefixClaim.OwnerKind.NAMESPACE, namespace.id())),
            marker(context, namespace));
      });
    } catch (RuntimeException e) {
      undoMarkerQuietly(bucket, namespace.prefix(), e);
      throw e;
    }
    return CreateNamespaceResponse.builder().withNamespace(request.namespace())
        .setProperties(new HashMap<>(properties)).build();
  }

  @Override
  public GetNamespaceResponse load(OrgContext context, Namespace namespace) {
    io.floe.domain.Namespace found = require(context, namespace);
    // Iceberg's builders probe for null values, which immutable maps refuse to answer.
    return GetNamespaceResponse.builder().withNamespace(namespace)
        .setProperties(new HashMap<>(found.properties())).build();
  }

  @Override
  public UpdateNamespacePropertiesResponse updateProperties(OrgContext context,
      Namespace namespace, UpdateNamespacePropertiesRequest request) {
    Set<String> removals = new HashSet<>(request.removals());
    Map<String, String> updates = new LinkedHashMap<>(request.updates());
    Set<String> both = new HashSet<>(removals);
    both.retainAll(updates.keySet());
    if (!both.isEmpty()) {
      throw new UnprocessableEntityException(
          "Cannot remove and update the same properties at once: %s", both);
    }
    return unitOfWork.inTransaction(() -> {
      io.floe.domain.Namespace found = require(context, namespace);
      policy.require(context, Action.WRITE, found);
      Set<String> missing = new HashSet<>(removals);
      missing.removeAll(found.properties().keySet());
      Set<String> removed = new HashSet<>(removals);
      removed.removeAll(missing);
      namespaces.updateProperties(found.id(), removals, updates, clock.instant());
      return UpdateNamespacePropertiesResponse.builder().addUpdated(updates.keySet())
          .addRemoved(removed).addMissing(missing).build();
    });
  }

  @Override
  public void drop(OrgContext context, Namespace namespace) {
    unitOfWork.inTransaction(() -> {
      io.floe.domain.Namespace found = require(context, namespace);
      policy.require(context, Action.MANAGE, found);
      if (namespaces.hasObjects(found.id())) {
        throw new NamespaceNotEmptyException(
            "Namespace %s is not empty: drop its tables and views first", namespace);
      }
      Instant now = clock.instant();
      namespaces.markDeleted(found.id(), now, now.plus(recoveryPeriod));
      if (recoveryPeriod.isZero()) {
        // Without a recovery period the name is free at once; the prefix stays claimed until
        // the cleanup pass has emptied it.
        names.release(context.org().id(), found.name());
      }
    });
  }

  /** The live namespace, if the caller may see it; otherwise it does not exist for the caller. */
  io.floe.domain.Namespace require(OrgContext context, Namespace namespace) {
    CatalogName name = FlatIdentifiers.namespaceName(namespace);
    return namespaces.findLive(context.org().id(), name)
        .filter(found -> policy.canSee(context, found))
        .orElseThrow(() -> new NoSuchNamespaceException("Namespace does not exist: %s", namespace));
  }

  private BucketConfig chooseBucket(OrgContext context, String nickname) {
    BucketConfig bucket;
    if (nickname == null) {
      bucket = orgs.defaultBucket(context.org().id()).orElseThrow(() -> new BadRequestException(
          "Org '%s' has no default bucket configuration; name one with the '%s' property",
          context.org().name(), BUCKET_PROPERTY));
    } else {
      CatalogName parsed;
      try {
        parsed = new CatalogName(nickname);
      } catch (InvalidNameException e) {
        throw new BadRequestException("Invalid bucket nickname: %s", e.getMessage());
      }
      bucket = orgs.bucket(context.org().id(), parsed).orElseThrow(() -> new BadRequestException(
          "Bucket configuration '%s' does not exist in org '%s'", nickname, context.org().name()));
    }
    bucket.requireIcebergSupport();
    return bucket;
  }

  private String marker(OrgContext context, io.floe.domain.Namespace namespace) {
    return "{\"kind\":\"namespace\",\"org\":\"" + context.org().name() + "\",\"id\":\""
        + namespace.id() + "\",\"created_at\":\"" + namespace.createdAt() + "\"}\n";
  }

  private void undoMarkerQuietly(BucketConfig bucket, StoragePath prefix, RuntimeException cause) {
    try {
      claimer.undoMarker(bucket, prefix);
    } catch (RuntimeException e) {
      cause.addSuppressed(e);
    }
  }
}
