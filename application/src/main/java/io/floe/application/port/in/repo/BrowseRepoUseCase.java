package io.floe.application.port.in.repo;

import io.floe.application.security.OrgContext;
import io.floe.domain.RepoCommit;
import io.floe.domain.RepoNode;
import io.floe.domain.RepoRefs;
import io.floe.domain.RepoTables;
import java.util.List;

/** Reads a repo's branches, tags, history and nodes without an Icechunk client. */
public interface BrowseRepoUseCase {
  /** The ref reads use when the caller names none. */
  String DEFAULT_REF = "main";

  RepoRefs refs(OrgContext context, String repo);

  List<RepoCommit> log(OrgContext context, String repo, String ref, int limit);

  RepoNode node(OrgContext context, String repo, String ref, String path);

  /** The Iceberg tables declared in the repo as of {@code ref}, by the icechest convention. */
  RepoTables tables(OrgContext context, String repo, String ref);
}
