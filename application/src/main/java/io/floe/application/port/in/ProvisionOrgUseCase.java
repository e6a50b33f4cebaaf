package io.floe.application.port.in;

import io.floe.domain.OrgName;
import java.util.Optional;
import java.util.function.Consumer;

/** Creates an org with Iceberg enabled, its default bucket, and an admin with an API token. */
public interface ProvisionOrgUseCase {
  /**
   * Creates the org unless it exists. The new admin token's secret exists only in memory: it is
   * handed to {@code deliverToken} inside the transaction, so if delivering it fails, nothing is
   * created and the next attempt starts over. A {@code presetToken} (an operator's bootstrap secret)
   * is used instead of a generated one; it must have the form of a Floe token.
   *
   * @return whether the org was created
   */
  boolean provisionIfAbsent(OrgName name, BucketSpec defaultBucket, Optional<String> presetToken,
      Consumer<String> deliverToken);
}
