package io.floe.application.service.maintenance;

import io.floe.application.model.MaintenancePolicy;
import io.floe.application.model.MaintenancePolicyView;
import io.floe.application.port.in.maintenance.PolicyTarget;
import io.floe.application.port.out.MaintenancePolicyStore;
import io.floe.application.port.out.MaintenancePolicyStore.Scope;
import io.floe.application.security.AccessPolicy;
import io.floe.application.security.OrgContext;
import io.floe.application.service.catalog.CatalogLocator;
import io.floe.application.service.catalog.ResolvedObject;
import io.floe.application.service.catalog.ResolvedTable;
import io.floe.domain.Action;
import io.floe.domain.Namespace;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * The levels a policy target sits under, nearest first (a table, its namespace, the org), each
 * resolved as the caller may see it and authorized for what the caller wants to do; and the
 * policy that applies there, each field from the nearest level that sets it.
 */
public final class PolicyLevels {
  /** One level: its scope, its name, the id its policy is kept under. */
  record Level(Scope scope, String name, UUID id) {
    String source() {
      return scope.name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  private final CatalogLocator locator;
  private final AccessPolicy access;
  private final MaintenancePolicyStore store;
  private final OrphanGraceFloor orphanFloor;

  public PolicyLevels(CatalogLocator locator, AccessPolicy access, MaintenancePolicyStore store) {
    this(locator, access, store, OrphanGraceFloor.DEFAULT);
  }

  public PolicyLevels(CatalogLocator locator, AccessPolicy access, MaintenancePolicyStore store,
      OrphanGraceFloor orphanFloor) {
    this.locator = locator;
    this.access = access;
    this.store = store;
    this.orphanFloor = orphanFloor;
  }

  /** The shortest grace period orphan removal may use here. */
  OrphanGraceFloor orphanFloor() {
    return orphanFloor;
  }

  /** Refuses a policy whose orphan grace period is under the floor. */
  void requireAllowed(MaintenancePolicy policy) {
    if (policy.orphanGraceSeconds() != null) {
      orphanFloor.require(Duration.ofSeconds(policy.orphanGraceSeconds()),
          "orphan_grace_seconds");
    }
  }

  /** The target's levels, nearest first, once the caller is allowed {@code action} on it. */
  List<Level> resolve(OrgContext context, PolicyTarget target, Action action) {
    List<Level> levels = new ArrayList<>();
    Level orgLevel = new Level(Scope.ORG, context.org().name().value(), context.org().id());
    if (target.namespace().isEmpty()) {
      if (action != Action.READ) {
        access.requireAdmin(context, "set the org's maintenance policy");
      }
      return List.of(orgLevel);
    }
    org.apache.iceberg.catalog.Namespace icebergNamespace =
        org.apache.iceberg.catalog.Namespace.of(target.namespace().get());
    if (target.table().isPresent()) {
      TableIdentifier identifier = TableIdentifier.of(icebergNamespace, target.table().get());
      ResolvedTable table = locator.table(context, identifier);
      table.require(access, context, action);
      if (!(table instanceof ResolvedObject object)) {
        throw new BadRequestException("Table %s is declared by a repo; maintenance policies "
            + "apply to the catalog's own tables", identifier);
      }
      levels.add(new Level(Scope.TABLE, identifier.toString(), object.object().id()));
      levels.add(new Level(Scope.NAMESPACE, object.namespace().name().value(),
          object.namespace().id()));
    } else {
      Namespace namespace = locator.namespace(context, icebergNamespace);
      access.require(context, action, namespace);
      levels.add(new Level(Scope.NAMESPACE, namespace.name().value(), namespace.id()));
    }
    levels.add(orgLevel);
    return levels;
  }

  /** The levels' policies merged, with where each field came from. */
  MaintenancePolicyView view(List<Level> levels) {
    Level nearest = levels.get(0);
    MaintenancePolicy own = store.find(nearest.id()).orElse(null);
    MaintenancePolicy effective = MaintenancePolicy.NONE;
    Map<String, String> sources = new LinkedHashMap<>();
    for (Level level : levels) {
      Optional<MaintenancePolicy> set = level == nearest ? Optional.ofNullable(own)
          : store.find(level.id());
      if (set.isEmpty()) {
        continue;
      }
      MaintenancePolicy policy = set.get();
      source(sources, "snapshot_max_age_seconds", effective, policy,
          MaintenancePolicy::snapshotMaxAgeSeconds, level);
      source(sources, "min_snapshots_to_keep", effective, policy,
          MaintenancePolicy::minSnapshotsToKeep, level);
      source(sources, "orphan_grace_seconds", effective, policy,
          MaintenancePolicy::orphanGraceSeconds, level);
      source(sources, "manifest_rewrite_threshold", effective, policy,
          MaintenancePolicy::manifestRewriteThreshold, level);
      source(sources, "compaction_target_file_size_bytes", effective, policy,
          MaintenancePolicy::compactionTargetFileSizeBytes, level);
      source(sources, "compaction_min_input_files", effective, policy,
          MaintenancePolicy::compactionMinInputFiles, level);
      source(sources, "executor", effective, policy, MaintenancePolicy::executor, level);
      effective = effective.over(policy);
    }
    return new MaintenancePolicyView(nearest.source(), nearest.name(), own, effective, sources);
  }

  /** The policy that applies to a table already resolved and authorized. */
  MaintenancePolicy effectiveFor(ResolvedObject table, OrgContext context) {
    MaintenancePolicy effective = MaintenancePolicy.NONE;
    for (UUID id : List.of(table.object().id(), table.namespace().id(), context.org().id())) {
      Optional<MaintenancePolicy> set = store.find(id);
      if (set.isPresent()) {
        effective = effective.over(set.get());
      }
    }
    Long grace = effective.orphanGraceSeconds();
    if (grace != null && grace < orphanFloor.floor().toSeconds()) {
      // Set before the operator raised the floor: it runs at the floor, never under it.
      effective = new MaintenancePolicy(null, null, orphanFloor.floor().toSeconds(), null, null,
          null, null).over(effective);
    }
    return effective;
  }

  private static void source(Map<String, String> sources, String field,
      MaintenancePolicy nearer, MaintenancePolicy policy,
      Function<MaintenancePolicy, Object> value, Level level) {
    if (value.apply(nearer) == null && value.apply(policy) != null) {
      sources.put(field, level.source());
    }
  }
}
