package io.floe.bootstrap;

import io.floe.adapters.icechunk.port.BucketRepoTablePointers;
import io.floe.adapters.persistence.jooq.PostgresRepoCommitLocks;
import io.floe.application.port.out.MetadataPointers;
import io.floe.application.security.AccessPolicy;
import io.floe.application.service.repo.tables.RepoNamespaces;

/**
 * The wiring of the tables repos declare, served by the same use cases as plain tables: which
 * repo versions engines address as namespaces, and the pointer store of a repo's branches (its
 * Icechunk history, the branches' turns taken in PostgreSQL).
 */
final class RepoTablesModule {
  final RepoNamespaces namespaces;
  final MetadataPointers branches;

  RepoTablesModule(Adapters adapters, AccessPolicy policy) {
    BucketRepoTablePointers repoTables = new BucketRepoTablePointers(adapters.storage(),
        new PostgresRepoCommitLocks(adapters.database()), adapters.database());
    this.branches = repoTables;
    this.namespaces = new RepoNamespaces(adapters.repos(), adapters.orgs(), repoTables,
        adapters.icechunk(), policy);
  }
}
