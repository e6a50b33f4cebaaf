package io.floe.application.model;

import java.util.Locale;
import java.util.Objects;

/**
 * One inconsistency {@code floe check} found between the catalog and its buckets: what kind, the
 * thing it is about ({@code subject}, a name or a storage location) and what is wrong with it.
 */
public record CheckFinding(Kind kind, String subject, String detail) {
  /** What went wrong; each kind is found by one checker. */
  public enum Kind {
    /** A table's or view's current metadata file is not in its bucket. */
    METADATA_MISSING,
    /** A table's or view's current metadata file is there but cannot be read or parsed. */
    METADATA_UNREADABLE,
    /** Objects in a bucket under a prefix that no namespace, table or repo claims. */
    UNCLAIMED_PREFIX,
    /** A soft-deleted namespace or repo whose recovery period ended but that is not cleaned up. */
    OVERDUE_DELETION;

    /** The name the API and the command line show: {@code metadata_missing}, ... */
    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  public CheckFinding {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(detail, "detail");
  }
}
