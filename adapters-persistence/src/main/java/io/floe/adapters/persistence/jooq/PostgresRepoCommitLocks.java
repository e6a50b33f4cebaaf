package io.floe.adapters.persistence.jooq;

import io.floe.application.port.out.RepoCommitLocks;
import java.util.UUID;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * Repo branch locks as PostgreSQL transaction-scoped advisory locks, keyed by a 64-bit hash of
 * the repo id and branch name: no table, released when the transaction ends however it ends.
 */
public final class PostgresRepoCommitLocks implements RepoCommitLocks {
  private final DSLContext dsl;

  public PostgresRepoCommitLocks(Database database) {
    this.dsl = database.dsl();
  }

  @Override
  public void lockBranch(UUID repoId, String branch) {
    String key = "floe.repo-branch:" + repoId + ":" + branch;
    dsl.select(DSL.function("pg_advisory_xact_lock", SQLDataType.OTHER,
        DSL.function("hashtextextended", SQLDataType.BIGINT, DSL.val(key), DSL.val(0L))))
        .fetch();
  }
}
