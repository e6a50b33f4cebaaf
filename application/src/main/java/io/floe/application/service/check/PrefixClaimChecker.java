package io.floe.application.service.check;

import io.floe.application.model.CheckCursor;
import io.floe.application.model.CheckFinding;
import io.floe.application.port.out.BucketStorageProvider;
import io.floe.application.port.out.OrgStore;
import io.floe.application.port.out.PrefixClaimStore;
import io.floe.domain.BucketConfig;
import io.floe.domain.PrefixClaim;
import io.floe.domain.StoragePath;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Lists each of the org's buckets under its prefix and reports every first-level prefix holding
 * objects that no namespace, table or repo claims: files left by a writer outside Floe, or by a
 * cleanup that lost its claim before it deleted them. One bucket per step, in the order of their
 * ids; the cursor ({@code at}) holds the id of the next bucket.
 */
public final class PrefixClaimChecker implements CatalogChecker {
  /** The objects of one bucket looked at: a bucket of more is checked in its first ones only. */
  static final int MAX_OBJECTS = 100_000;
  /** Objects listed per unit of a page's budget. */
  private static final int OBJECTS_PER_UNIT = 100;

  private final OrgStore orgs;
  private final PrefixClaimStore claims;
  private final BucketStorageProvider storage;

  public PrefixClaimChecker(OrgStore orgs, PrefixClaimStore claims,
      BucketStorageProvider storage) {
    this.orgs = orgs;
    this.claims = claims;
    this.storage = storage;
  }

  @Override
  public CheckCursor.Phase phase() {
    return CheckCursor.Phase.BUCKETS;
  }

  @Override
  public Optional<CheckCursor> check(UUID orgId, CheckCursor from, Budget budget,
      List<CheckFinding> findings) {
    List<BucketConfig> buckets = new ArrayList<>(orgs.buckets(orgId));
    buckets.sort(Comparator.comparing(bucket -> bucket.id().toString()));
    Optional<BucketConfig> next = buckets.stream()
        .filter(bucket -> bucket.id().toString().compareTo(from.at()) >= 0).findFirst();
    if (next.isEmpty()) {
      return Optional.empty();
    }
    BucketConfig bucket = next.get();
    List<StoragePath> keys = storage.open(bucket).list(bucket.prefix(), MAX_OBJECTS);
    budget.spend(1 + keys.size() / OBJECTS_PER_UNIT);
    for (Map.Entry<StoragePath, List<StoragePath>> group : byFirstSegment(bucket, keys)
        .entrySet()) {
      List<PrefixClaim> claimed = claims.overlapping(bucket.id(), group.getKey());
      List<StoragePath> unclaimed = group.getValue().stream()
          .filter(key -> claimed.stream().noneMatch(claim -> key.isWithin(claim.path())))
          .toList();
      if (!unclaimed.isEmpty()) {
        findings.add(new CheckFinding(CheckFinding.Kind.UNCLAIMED_PREFIX,
            bucket.nickname().value() + ":" + group.getKey().value(),
            unclaimed.size() + " object(s) no namespace, table or repo claims, such as "
                + unclaimed.get(0).value()));
      }
    }
    String following = buckets.stream().map(b -> b.id().toString())
        .filter(id -> id.compareTo(bucket.id().toString()) > 0).findFirst().orElse(null);
    return following == null ? Optional.empty()
        : Optional.of(new CheckCursor(phase(), following, ""));
  }

  /** The keys grouped by the prefix one segment below the bucket's own, in listing order. */
  private static Map<StoragePath, List<StoragePath>> byFirstSegment(BucketConfig bucket,
      List<StoragePath> keys) {
    StoragePath root = bucket.prefix();
    Map<StoragePath, List<StoragePath>> groups = new LinkedHashMap<>();
    for (StoragePath key : keys) {
      if (!key.isWithin(root) || key.equals(root)) {
        continue;
      }
      String rest = root.isRoot() ? key.value() : key.value().substring(root.value().length() + 1);
      String segment = rest.split("/", 2)[0];
      groups.computeIfAbsent(root.resolve(segment), prefix -> new ArrayList<>()).add(key);
    }
    return groups;
  }
}
