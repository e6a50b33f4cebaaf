package io.floe.application.port.in.org;

import io.floe.application.model.BucketSpec;
import io.floe.domain.BucketConfig;
import io.floe.domain.Org;
import io.floe.domain.OrgName;
import io.floe.domain.Principal;
import java.util.Optional;
import java.util.function.Consumer;

/** Creates an org, its default bucket, and an admin with an API token, all or nothing. */
public interface ProvisionOrgUseCase {
  /** A new org, its default bucket, its admin (an API client) and the admin's token secret. */
  record ProvisionedOrg(Org org, BucketConfig defaultBucket, Principal admin, String token) {}

  /**
   * First start: creates the org, with Iceberg enabled, unless it exists. The new admin token's secret exists only in memory: it is
   * handed to {@code deliverToken} inside the transaction, so if delivering it fails, nothing is
   * created and the next attempt starts over. A {@code presetToken} (an operator's bootstrap secret)
   * is used instead of a generated one; it must have the form of a Floe token.
   *
   * @return whether the org was created
   */
  boolean provisionIfAbsent(OrgName name, BucketSpec defaultBucket, Optional<String> presetToken,
      Consumer<String> deliverToken);

  /**
   * Creates the org with its Iceberg feature flag as given; the admin token's secret is returned
   * once and stored only as its hash.
   *
   * @throws org.apache.iceberg.exceptions.AlreadyExistsException when an org of that name exists
   */
  ProvisionedOrg provision(OrgName name, boolean icebergEnabled, BucketSpec defaultBucket);
}
