package io.floe.application.port.in.repo;

import io.floe.application.model.RepoDetails;
import io.floe.application.security.OrgContext;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a client needs to open a repo's Icechunk repository itself: where it is, and short-lived
 * storage credentials that reach its prefix and nothing else, when the bucket can vend them.
 */
public interface OpenRepoUseCase {

  /**
   * A repo and the credentials for its prefix: FileIO-style properties ({@code s3.*},
   * {@code gcs.*}), empty when the bucket vends none (a local directory, a bucket without a role
   * to assume).
   */
  record RepoAccess(RepoDetails repo, Map<String, String> credentials,
      Optional<Instant> expiresAt) {
    public RepoAccess {
      Objects.requireNonNull(repo, "repo");
      credentials = Map.copyOf(credentials);
      Objects.requireNonNull(expiresAt, "expiresAt");
    }
  }

  RepoAccess open(OrgContext context, String repo);
}
