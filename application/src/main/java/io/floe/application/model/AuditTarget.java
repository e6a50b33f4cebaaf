package io.floe.application.model;

import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * What a change acted on, as people name it: an org, bucket, namespace or repo by its name, a
 * table or view by {@code <namespace>.<name>}, a principal by its name.
 */
public record AuditTarget(Kind kind, String name) {
  public enum Kind {
    ORG, BUCKET, NAMESPACE, TABLE, VIEW, REPO, PRINCIPAL, SUBSCRIPTION;

    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<Kind> fromWireName(String name) {
      return Arrays.stream(values()).filter(kind -> kind.wireName().equals(name)).findFirst();
    }
  }

  public AuditTarget {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(name, "name");
  }

  public static AuditTarget of(Kind kind, Object name) {
    return new AuditTarget(kind, name.toString());
  }
}
