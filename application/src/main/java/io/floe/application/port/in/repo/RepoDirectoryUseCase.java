package io.floe.application.port.in.repo;

import io.floe.application.model.RepoDetails;
import io.floe.application.security.OrgContext;
import java.util.List;

/** Finds an org's repos, live or soft-deleted and still restorable. */
public interface RepoDirectoryUseCase {
  RepoDetails get(OrgContext context, String repo);

  List<RepoDetails> list(OrgContext context);

  /** Soft-deleted repos that can still be restored. */
  List<RepoDetails> listDeleted(OrgContext context);
}
