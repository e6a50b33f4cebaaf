package io.floe.application.port.in;

import io.floe.application.model.CreateRepoCommand;
import io.floe.application.model.DeleteRepoCommand;
import io.floe.application.model.RepoDetails;
import io.floe.application.security.OrgContext;
import io.floe.domain.RepoCommit;
import io.floe.domain.RepoNode;
import io.floe.domain.RepoRefs;
import java.util.List;

/**
 * An org's Icechunk repos: created at a server-claimed prefix, soft-deleted and restored like
 * namespaces, and browsable (refs, history, node attributes) without an Icechunk client. Repo
 * names are plain strings here and validated as {@link io.floe.domain.CatalogName}s.
 */
public interface ReposUseCase {
  /** The ref reads use when the caller names none. */
  String DEFAULT_REF = "main";

  RepoDetails create(OrgContext context, CreateRepoCommand command);

  RepoDetails get(OrgContext context, String repo);

  List<RepoDetails> list(OrgContext context);

  /** Soft-deleted repos that can still be restored. */
  List<RepoDetails> listDeleted(OrgContext context);

  /** Soft-deletes: the repository's files and name stay until the recovery period ends. */
  default void delete(OrgContext context, String repo) {
    delete(context, repo, DeleteRepoCommand.SOFT);
  }

  /** Deletes as {@code command} says; the cleanup pass removes the files later, if at all. */
  void delete(OrgContext context, String repo, DeleteRepoCommand command);

  RepoDetails restore(OrgContext context, String repo);

  RepoRefs refs(OrgContext context, String repo);

  List<RepoCommit> log(OrgContext context, String repo, String ref, int limit);

  RepoNode node(OrgContext context, String repo, String ref, String path);
}
