/**
 * Floe's domain model: orgs, buckets, namespaces, tables, repos, names, prefix claims, principals,
 * grants and intents. Plain Java with no third-party dependency, so that another service can embed it.
 */
module io.floe.domain {
  exports io.floe.domain;
}
