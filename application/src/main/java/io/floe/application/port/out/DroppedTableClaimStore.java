package io.floe.application.port.out;

import io.floe.domain.PrefixClaim;
import java.util.List;
import java.util.UUID;

/**
 * The prefix claims of dropped tables that had a prefix of their own (on another bucket). Their
 * files outlive the drop, so the claim does too, until the cleanup of the namespace the table was
 * dropped from empties and releases it. The catalog store records that namespace on drop.
 */
public interface DroppedTableClaimStore {
  /** Claims of tables dropped from {@code namespaceId} that are still held. */
  List<PrefixClaim> droppedFrom(UUID namespaceId);
}
