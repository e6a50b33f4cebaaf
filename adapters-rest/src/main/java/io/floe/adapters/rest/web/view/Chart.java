package io.floe.adapters.rest.web.view;

import java.util.List;

/**
 * A line chart drawn on the server as SVG: rows and data files over snapshots, each on a scale
 * of its own (rows on the left axis, files on the right).
 */
public record Chart(int width, int height, String rowsPath, String filesPath,
    List<Point> rowPoints, List<Point> filePoints, String rowsMax, String filesMax,
    String summary, int left, int right, int top, int bottom) {

  /** A data point, with what a tooltip says about it. */
  public record Point(String x, String y, String label) {}

  public boolean drawable() {
    return !rowPoints.isEmpty();
  }
}
