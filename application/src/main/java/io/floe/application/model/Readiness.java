package io.floe.application.model;

import java.util.List;

/** Whether the server can serve requests, and if not, why not: one problem a line. */
public record Readiness(List<String> problems) {
  public Readiness {
    problems = List.copyOf(problems);
  }

  public boolean ready() {
    return problems.isEmpty();
  }
}
