package io.floe.application.service.table.planning;

import io.floe.application.service.table.planning.PlanTokens.Claims;
import io.floe.application.service.table.planning.PlanTokens.Kind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.function.Function;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.rest.requests.PlanTableScanRequest;

/**
 * A scan's tasks a page at a time, so that what one request holds and reads stays bounded
 * whatever the table's size. A plan answers its tasks at once when there are at most a page of
 * them; past that it stops reading and answers plan tasks instead: ranges of the scan's data
 * manifests. A plan task is read one manifest after another (each manifest's tasks come in its
 * own order), a page at most, and what is left of its range is a further plan task, which says
 * how many tasks of its first manifest were already handed out.
 */
final class ScanPages {
  /** The plan tasks a plan answers at most; each covers a range of the data manifests. */
  static final int MAX_PLAN_TASKS = 32;
  /** The data manifests one fetch of a plan task reads at most. */
  static final int MAX_MANIFESTS_PER_FETCH = 64;

  /** A page: tasks, and the plan tasks that stand for the rest. */
  record Page(List<FileScanTask> tasks, List<String> planTasks) {}

  private final int tasksPerPage;
  private final ExecutorService manifestReaders;

  /** {@code manifestReaders}: the pool a plan reads manifests in; its size is the cap. */
  ScanPages(int tasksPerPage, ExecutorService manifestReaders) {
    if (tasksPerPage < 1) {
      throw new IllegalArgumentException("a page holds at least one task");
    }
    this.tasksPerPage = tasksPerPage;
    this.manifestReaders = manifestReaders;
  }

  /**
   * The first answer to a plan: every task when there are at most a page of them; otherwise
   * plan tasks for ranges of the data manifests, made by {@code token} from a range's claims.
   */
  Page first(TableMetadata metadata, FileIO io, PlanTableScanRequest pinned,
      Function<Claims, String> token, Claims plan) {
    List<FileScanTask> tasks = new ArrayList<>();
    try (CloseableIterable<FileScanTask> planned = TableScans.scan(metadata, io, pinned,
        manifest -> true, manifestReaders).planFiles()) {
      for (FileScanTask task : planned) {
        if (tasks.size() == tasksPerPage) {
          return new Page(List.of(), ranges(TableScans.dataManifests(metadata, io, pinned).size(),
              token, plan));
        }
        tasks.add(task);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new Page(tasks, List.of());
  }

  /** The tasks of a plan task, a page at most, and a plan task for the rest of its range. */
  Page next(TableMetadata metadata, FileIO io, PlanTableScanRequest pinned,
      Function<Claims, String> token, Claims task) {
    List<ManifestFile> manifests = TableScans.dataManifests(metadata, io, pinned);
    int to = Math.min(task.toManifest(), manifests.size());
    List<FileScanTask> tasks = new ArrayList<>();
    int index = task.fromManifest();
    for (int read = 0; index < to && read < MAX_MANIFESTS_PER_FETCH; index++, read++) {
      String path = manifests.get(index).path();
      int skip = index == task.fromManifest() ? task.skipTasks() : 0;
      int seen = 0;
      try (CloseableIterable<FileScanTask> planned = TableScans.scan(metadata, io, pinned,
          manifest -> manifest.path().equals(path), null).planFiles()) {
        for (FileScanTask planTask : planned) {
          if (seen++ < skip) {
            continue;
          }
          if (tasks.size() == tasksPerPage) {
            return new Page(tasks, List.of(token.apply(range(task, index, to, seen - 1))));
          }
          tasks.add(planTask);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return new Page(tasks, index < to ? List.of(token.apply(range(task, index, to, 0)))
        : List.of());
  }

  private static List<String> ranges(int manifests, Function<Claims, String> token, Claims plan) {
    int count = Math.min(MAX_PLAN_TASKS, manifests);
    List<String> tasks = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      int from = (int) ((long) manifests * i / count);
      int to = (int) ((long) manifests * (i + 1) / count);
      tasks.add(token.apply(range(plan, from, to, 0)));
    }
    return tasks;
  }

  private static Claims range(Claims of, int from, int to, int skip) {
    return new Claims(Kind.PLAN_TASK, of.orgId(), of.principalId(), of.tableUuid(), from, to,
        skip, of.request());
  }
}
