package io.floe.adapters.rest.web.view;

import java.util.Optional;

/**
 * A block of the Connect tab: the engine, its language, an element id, the text its Copy button
 * copies (a program, a command line or a configuration file, whole), and what to run once it is
 * set up, where that is another program (a SQL shell after a command line or a catalog file).
 */
public record Snippet(String engine, String language, String id, String text,
    Optional<FirstQuery> then) {

  /** A first statement to run in {@code where}, shown apart from the text to copy. */
  public record FirstQuery(String where, String language, String text) {}
}
