package io.floe.domain;

import java.util.Objects;
import java.util.UUID;

/** An organization: one Iceberg warehouse and one set of names for its namespaces and repos. */
public record Org(UUID id, OrgName name, boolean icebergEnabled) {
  public Org {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(name, "name");
  }

  /** Iceberg is gated by a feature flag per org. */
  public void requireIceberg() {
    if (!icebergEnabled) {
      throw new FeatureDisabledException("Iceberg is not enabled for org '" + name + "'");
    }
  }
}
