package io.floe.domain;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The name of a namespace or a repo. Both share one set of names per org, compared
 * case-insensitively, and keep the case they were created with.
 *
 * <p>Rules: 1 to 100 characters of ASCII letters, digits, '-', '_' and '.', starting with a letter
 * or digit. Dots are allowed but {@link #warning() warned about}: engines split identifiers on dots,
 * so {@code raw.obs} would be read as a two-level namespace.
 */
public record CatalogName(String value) {
  public static final int MAX_LENGTH = 100;
  private static final Pattern RULE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

  public CatalogName {
    if (value == null || value.isEmpty()) {
      throw new InvalidNameException("a name must not be empty");
    }
    if (value.length() > MAX_LENGTH) {
      throw new InvalidNameException(
          "name '" + Names.printable(value) + "' is longer than " + MAX_LENGTH + " characters");
    }
    if (!RULE.matcher(value).matches()) {
      throw new InvalidNameException(
          "invalid name '" + Names.printable(value)
              + "': use ASCII letters, digits, '-', '_' or '.', starting with a letter or digit");
    }
  }

  /** The form two names are compared in: lowercase, independent of the server's locale. */
  public String key() {
    return value.toLowerCase(Locale.ROOT);
  }

  /** A warning to show the user when the name is legal but will surprise engines. */
  public Optional<String> warning() {
    if (value.contains(".")) {
      return Optional.of(
          "name '" + value + "' contains '.', which engines read as a namespace separator; "
              + "prefer '-' or '_'");
    }
    return Optional.empty();
  }

  @Override
  public String toString() {
    return value;
  }
}
