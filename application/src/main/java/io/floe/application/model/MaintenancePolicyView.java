package io.floe.application.model;

import java.util.Map;

/**
 * A maintenance policy as one level sees it: {@code scope} ({@code org}, {@code namespace},
 * {@code table}) and {@code target} name the level, {@code policy} is what it sets itself (null
 * when nothing), {@code effective} what applies there, and {@code sources} where each effective
 * field comes from ({@code org}, {@code namespace} or {@code table}).
 */
public record MaintenancePolicyView(String scope, String target, MaintenancePolicy policy,
    MaintenancePolicy effective, Map<String, String> sources) {
  public MaintenancePolicyView {
    sources = Map.copyOf(sources);
  }
}
