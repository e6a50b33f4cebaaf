package io.floe.application.service.table.planning;

import java.util.Objects;
import java.util.concurrent.ExecutorService;

/**
 * What one scan plan may take: at most {@code tasksPerPage} file scan tasks in one answer (past
 * that a plan answers plan tasks, fetched a page at a time), and manifests read on
 * {@code manifestReaders}, a pool whose size caps the manifests read at once by every plan of the
 * server together.
 */
public record ScanPlanningLimits(int tasksPerPage, ExecutorService manifestReaders) {
  /** Tasks per answer unless configured: a page of about a megabyte of JSON or two. */
  public static final int DEFAULT_TASKS_PER_PAGE = 1_000;

  public ScanPlanningLimits {
    Objects.requireNonNull(manifestReaders, "manifestReaders");
    if (tasksPerPage < 1) {
      throw new IllegalArgumentException("a page holds at least one task");
    }
  }
}
