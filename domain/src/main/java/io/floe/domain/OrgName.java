package io.floe.domain;

import java.util.regex.Pattern;

/**
 * The name of an organization, which is also its Iceberg warehouse name. Lowercase letters,
 * digits and hyphens, 2 to 64 characters, starting with a letter or digit: the name appears in
 * URLs and in engines' configuration, so it stays plain.
 */
public record OrgName(String value) {
  private static final Pattern RULE = Pattern.compile("[a-z0-9][a-z0-9-]{1,63}");

  public OrgName {
    if (value == null || !RULE.matcher(value).matches()) {
      throw new InvalidNameException(
          "invalid org name '" + Names.printable(value)
              + "': use 2 to 64 lowercase letters, digits or '-', starting with a letter or digit");
    }
  }

  @Override
  public String toString() {
    return value;
  }
}
