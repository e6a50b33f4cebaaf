package io.floe.application.port.in.check;

import io.floe.application.model.CheckCursor;
import io.floe.application.model.CheckPage;
import io.floe.application.security.OrgContext;

/**
 * Checking an org's catalog against its buckets without changing anything: tables and views (those
 * the repos' branches declare too) whose current metadata file is missing or unreadable, objects under prefixes nothing claims, and
 * soft-deleted namespaces and repos past their recovery period that were never cleaned up.
 */
public interface CheckCatalogUseCase {
  /**
   * The findings of one bounded page of the check, from {@code from} (a previous page's next, or
   * {@link CheckCursor#start()}), looking at about {@code limit} things; admins only.
   */
  CheckPage check(OrgContext context, CheckCursor from, int limit);
}
