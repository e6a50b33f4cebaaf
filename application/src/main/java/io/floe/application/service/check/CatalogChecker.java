package io.floe.application.service.check;

import io.floe.application.model.CheckCursor;
import io.floe.application.model.CheckFinding;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** One phase of {@code floe check}: looks at one kind of thing and reports what is wrong. */
interface CatalogChecker {
  /** The phase this checker runs. */
  CheckCursor.Phase phase();

  /**
   * Checks the org's things from {@code from} (of this checker's phase) while {@code budget} lasts,
   * adding what it finds to {@code findings}; returns where to carry on, or empty when the phase is
   * complete. Never writes anything.
   */
  Optional<CheckCursor> check(UUID orgId, CheckCursor from, Budget budget,
      List<CheckFinding> findings);
}
