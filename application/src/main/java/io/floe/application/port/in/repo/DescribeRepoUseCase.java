package io.floe.application.port.in.repo;

import io.floe.application.model.RepoDetails;
import io.floe.application.security.OrgContext;
import java.util.Optional;

/** Changes what people read about a repo: its description (empty clears it). */
public interface DescribeRepoUseCase {
  RepoDetails describe(OrgContext context, String repo, Optional<String> description);
}
