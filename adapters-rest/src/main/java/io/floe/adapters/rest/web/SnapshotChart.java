package io.floe.adapters.rest.web;

import io.floe.adapters.rest.web.view.Chart;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;

/**
 * The table page's chart, computed here and drawn as SVG by the template: total rows and total
 * data files after each snapshot, from the snapshots' summaries (no file is read). A snapshot
 * whose summary lacks a total (some writers omit it) is left out of that line.
 */
final class SnapshotChart {
  static final int WIDTH = 640;
  static final int HEIGHT = 220;
  private static final int LEFT = 56;
  private static final int RIGHT = 56;
  private static final int TOP = 16;
  private static final int BOTTOM = 28;

  private SnapshotChart() {}

  static Chart of(List<Snapshot> snapshots) {
    List<Long> rows = new ArrayList<>();
    List<Long> files = new ArrayList<>();
    for (Snapshot snapshot : snapshots) {
      rows.add(total(snapshot, SnapshotSummary.TOTAL_RECORDS_PROP));
      files.add(total(snapshot, SnapshotSummary.TOTAL_DATA_FILES_PROP));
    }
    long rowsMax = max(rows);
    long filesMax = max(files);
    List<Chart.Point> rowPoints = points(rows, rowsMax, "rows");
    List<Chart.Point> filePoints = points(files, filesMax, "data files");
    String summary = snapshots.isEmpty() ? "No snapshots yet."
        : snapshots.size() + " snapshots; now " + last(rows) + " rows in " + last(files)
            + " data files.";
    return new Chart(WIDTH, HEIGHT, path(rowPoints), path(filePoints), rowPoints, filePoints,
        Long.toString(rowsMax), Long.toString(filesMax), summary, LEFT, WIDTH - RIGHT, TOP,
        HEIGHT - BOTTOM);
  }

  private static List<Chart.Point> points(List<Long> values, long max, String unit) {
    List<Chart.Point> out = new ArrayList<>();
    int n = values.size();
    for (int i = 0; i < n; i++) {
      Long value = values.get(i);
      if (value == null) {
        continue;
      }
      double x = n == 1 ? (LEFT + WIDTH - RIGHT) / 2.0
          : LEFT + (WIDTH - LEFT - RIGHT) * i / (double) (n - 1);
      double y = HEIGHT - BOTTOM - (HEIGHT - TOP - BOTTOM) * (max == 0 ? 0 : value / (double) max);
      out.add(new Chart.Point(coordinate(x), coordinate(y),
          "snapshot " + (i + 1) + ": " + value + " " + unit));
    }
    return out;
  }

  private static String path(List<Chart.Point> points) {
    StringBuilder d = new StringBuilder();
    for (Chart.Point point : points) {
      d.append(d.length() == 0 ? "M" : " L").append(point.x()).append(' ').append(point.y());
    }
    return d.toString();
  }

  private static Long total(Snapshot snapshot, String property) {
    String value = snapshot.summary() == null ? null : snapshot.summary().get(property);
    try {
      return value == null ? null : Long.parseLong(value);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static long max(List<Long> values) {
    return values.stream().filter(value -> value != null).mapToLong(Long::longValue).max()
        .orElse(0);
  }

  private static String last(List<Long> values) {
    Long value = values.isEmpty() ? null : values.get(values.size() - 1);
    return value == null ? "?" : value.toString();
  }

  private static String coordinate(double value) {
    return String.format(Locale.ROOT, "%.1f", value);
  }
}
