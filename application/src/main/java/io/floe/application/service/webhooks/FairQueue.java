package io.floe.application.service.webhooks;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Work waiting its turn, taken round-robin across orgs and first in, first out within one org:
 * an org with a hundred subscriptions queued gets one turn, then an org with one gets its turn,
 * so no org's number of subscriptions decides how long another org waits. Not thread-safe: its
 * owner guards it.
 */
final class FairQueue<T> {
  private final Map<UUID, ArrayDeque<T>> byOrg = new HashMap<>();
  /** The orgs with work queued, the next to be served first. */
  private final ArrayDeque<UUID> rotation = new ArrayDeque<>();

  void add(UUID orgId, T work) {
    byOrg.computeIfAbsent(orgId, org -> {
      rotation.addLast(org);
      return new ArrayDeque<>();
    }).addLast(work);
  }

  /** The next org's oldest work; the org goes to the back of the rotation. */
  Optional<T> poll() {
    UUID org = rotation.pollFirst();
    if (org == null) {
      return Optional.empty();
    }
    ArrayDeque<T> queued = byOrg.get(org);
    T work = queued.pollFirst();
    if (queued.isEmpty()) {
      byOrg.remove(org);
    } else {
      rotation.addLast(org);
    }
    return Optional.of(work);
  }

  boolean isEmpty() {
    return rotation.isEmpty();
  }
}
