package io.floe.application.model;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * How an engine asks to reach a table's files, from the Iceberg REST header
 * {@code X-Iceberg-Access-Delegation}: a comma-separated list of mechanisms it supports.
 */
public enum AccessDelegation {
  /** Short-lived credentials scoped to the table. */
  VENDED_CREDENTIALS("vended-credentials"),
  /** The catalog signs each storage request the engine makes. */
  REMOTE_SIGNING("remote-signing");

  public static final String HEADER = "X-Iceberg-Access-Delegation";

  private final String wireName;

  AccessDelegation(String wireName) {
    this.wireName = wireName;
  }

  /** The mechanisms a header value names; unknown ones are ignored, as the spec allows. */
  public static Set<AccessDelegation> parse(String header) {
    Set<AccessDelegation> requested = EnumSet.noneOf(AccessDelegation.class);
    if (header == null) {
      return requested;
    }
    for (String part : header.split(",")) {
      String name = part.strip().toLowerCase(Locale.ROOT);
      for (AccessDelegation mechanism : values()) {
        if (mechanism.wireName.equals(name)) {
          requested.add(mechanism);
        }
      }
    }
    return requested;
  }
}
