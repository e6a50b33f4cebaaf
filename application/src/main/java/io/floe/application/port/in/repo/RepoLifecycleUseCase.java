package io.floe.application.port.in.repo;

import io.floe.application.model.CreateRepoCommand;
import io.floe.application.model.DeleteCommand;
import io.floe.application.model.RepoDetails;
import io.floe.application.security.OrgContext;

/**
 * Creates an org's Icechunk repos at server-claimed prefixes, and deletes and restores them with
 * the namespaces' soft-delete semantics. Repo names are plain strings here and validated as
 * {@link io.floe.domain.CatalogName}s.
 */
public interface RepoLifecycleUseCase {
  RepoDetails create(OrgContext context, CreateRepoCommand command);

  /** Deletes as {@code command} says; the cleanup pass removes the files later, if at all. */
  void delete(OrgContext context, String repo, DeleteCommand command);

  RepoDetails restore(OrgContext context, String repo);
}
