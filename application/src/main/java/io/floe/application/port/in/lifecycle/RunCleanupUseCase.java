package io.floe.application.port.in.lifecycle;

import io.floe.application.security.OrgContext;

/** Runs the cleanup pass on demand, for the caller's org, instead of waiting for the hourly one. */
public interface RunCleanupUseCase {
  /** What one pass did. */
  record CleanupReport(int creationsUndone, int namespacesPurged, long objectsDeleted,
      int namespacesKept, int failures, int reposPurged) {}

  CleanupReport runFor(OrgContext context);
}
