package io.floe.application.model;

import java.util.Optional;

/**
 * What must hold for a write to go ahead, as S3's conditional PUT states it: the current object's
 * entity tag is {@code ifMatch} ({@code *}: any object exists), and is not {@code ifNoneMatch}
 * ({@code *}: no object exists). A write whose precondition fails writes nothing.
 */
public record WritePrecondition(Optional<String> ifMatch, Optional<String> ifNoneMatch) {
  public static final String ANY = "*";

  public WritePrecondition {
    ifMatch = ifMatch.map(WritePrecondition::unquoted);
    ifNoneMatch = ifNoneMatch.map(WritePrecondition::unquoted);
  }

  public static WritePrecondition none() {
    return new WritePrecondition(Optional.empty(), Optional.empty());
  }

  public boolean isNone() {
    return ifMatch.isEmpty() && ifNoneMatch.isEmpty();
  }

  /** Whether the write may replace what is there now ({@code current} empty: nothing is). */
  public boolean holdsFor(Optional<String> current) {
    boolean matchHolds = ifMatch.map(tag -> current.isPresent()
        && (tag.equals(ANY) || tag.equals(current.get()))).orElse(true);
    boolean noneMatchHolds = ifNoneMatch.map(tag -> current.isEmpty()
        || !(tag.equals(ANY) || tag.equals(current.get()))).orElse(true);
    return matchHolds && noneMatchHolds;
  }

  private static String unquoted(String tag) {
    String stripped = tag.strip();
    if (stripped.startsWith("W/")) {
      stripped = stripped.substring(2);
    }
    return stripped.length() >= 2 && stripped.startsWith("\"") && stripped.endsWith("\"")
        ? stripped.substring(1, stripped.length() - 1) : stripped;
  }
}
