package io.floe.adapters.rest.web.view;

import java.util.List;
import java.util.Optional;

/**
 * The maintenance policy that applies to a table, as its page shows it: each setting with its
 * value and the level it comes from, or a note saying why none can be shown.
 */
public record MaintenancePanel(List<Row> rows, Optional<String> note) {
  public MaintenancePanel {
    rows = List.copyOf(rows);
  }

  /** One setting: what it does, its value, and where it is set (org, namespace or table). */
  public record Row(String setting, String field, String value, String source) {}
}
