package io.floe.application.service.check;

import io.floe.application.iceberg.MetadataFiles;
import io.floe.application.model.CheckCursor;
import io.floe.application.model.CheckFinding;
import io.floe.application.port.out.CatalogObjectStore;
import io.floe.application.port.out.NamespaceStore;
import io.floe.application.port.out.OrgStore;
import io.floe.domain.BucketConfig;
import io.floe.domain.CatalogName;
import io.floe.domain.CatalogObject;
import io.floe.domain.Namespace;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Reads the current metadata file of every table and view of the org's namespaces, in the order
 * of namespace, kind and name, past the metadata cache: a file deleted or damaged after it was
 * cached is found too. The cursor holds the namespace ({@code at}) and the last object checked in
 * it ({@code after}: {@code KIND:name}).
 */
public final class MetadataFileChecker implements CatalogChecker {
  private static final int PAGE = 100;
  private static final List<CatalogObject.Kind> KINDS =
      List.of(CatalogObject.Kind.TABLE, CatalogObject.Kind.VIEW);

  private final NamespaceStore namespaces;
  private final CatalogObjectStore objects;
  private final OrgStore orgs;
  private final MetadataFileProbe probe;

  public MetadataFileChecker(NamespaceStore namespaces, CatalogObjectStore objects, OrgStore orgs,
      MetadataFiles files) {
    this.namespaces = namespaces;
    this.objects = objects;
    this.orgs = orgs;
    this.probe = new MetadataFileProbe(files);
  }

  @Override
  public CheckCursor.Phase phase() {
    return CheckCursor.Phase.OBJECTS;
  }

  @Override
  public Optional<CheckCursor> check(UUID orgId, CheckCursor from, Budget budget,
      List<CheckFinding> findings) {
    Map<UUID, Optional<BucketConfig>> buckets = new HashMap<>();
    Optional<Namespace> namespace = from.at().isEmpty() ? after(orgId, Optional.empty())
        : resumed(orgId, from.at());
    String position = from.after();
    while (namespace.isPresent()) {
      Namespace current = namespace.get();
      Optional<String> stop = checkObjects(current, position, budget, findings, buckets);
      if (stop.isPresent()) {
        return Optional.of(new CheckCursor(phase(), current.name().value(), stop.get()));
      }
      position = "";
      namespace = after(orgId, Optional.of(current.name().value()));
    }
    return Optional.empty();
  }

  private Optional<Namespace> after(UUID orgId, Optional<String> name) {
    return namespaces.listLive(orgId, name, 1).stream().findFirst();
  }

  /** The namespace a page stopped in; the next one when it was deleted since. */
  private Optional<Namespace> resumed(UUID orgId, String name) {
    Optional<Namespace> found;
    try {
      found = namespaces.findLive(orgId, new CatalogName(name));
    } catch (RuntimeException notAName) {
      found = Optional.empty();
    }
    return found.isPresent() ? found : after(orgId, Optional.of(name));
  }

  /** Checks the namespace's objects after {@code position}; where it stopped when out of budget. */
  private Optional<String> checkObjects(Namespace namespace, String position, Budget budget,
      List<CheckFinding> findings, Map<UUID, Optional<BucketConfig>> buckets) {
    int separator = position.indexOf(':');
    int first = separator < 0 ? 0 : Math.max(0, KINDS.stream().map(Enum::name).toList()
        .indexOf(position.substring(0, separator)));
    Optional<String> afterName = separator < 0 || separator == position.length() - 1
        ? Optional.empty() : Optional.of(position.substring(separator + 1));
    for (CatalogObject.Kind kind : KINDS.subList(first, KINDS.size())) {
      while (true) {
        if (budget.remaining() == 0) {
          return Optional.of(kind.name() + ":" + afterName.orElse(""));
        }
        int asked = Math.min(PAGE, budget.remaining());
        List<CatalogObject> page = objects.list(namespace.id(), kind, afterName, asked);
        for (CatalogObject object : page) {
          Optional<BucketConfig> bucket = buckets.computeIfAbsent(
              object.location().bucketId(), orgs::bucket);
          check(namespace, object, bucket).ifPresent(findings::add);
          budget.spend(1);
          afterName = Optional.of(object.name().value());
        }
        if (page.size() < asked) {
          break;
        }
      }
      afterName = Optional.empty();
    }
    return Optional.empty();
  }

  private Optional<CheckFinding> check(Namespace namespace, CatalogObject object,
      Optional<BucketConfig> bucket) {
    String subject = namespace.name().value() + "." + object.name().value();
    String location = object.metadataLocation();
    if (bucket.isEmpty()) {
      return Optional.of(new CheckFinding(CheckFinding.Kind.METADATA_UNREADABLE, subject,
          "the bucket configuration of " + location + " is gone"));
    }
    return probe.probe(subject, bucket.get(), location,
        object.kind() == CatalogObject.Kind.VIEW);
  }
}
