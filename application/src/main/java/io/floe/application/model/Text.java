package io.floe.application.model;

/** Checks free text from requests: present, bounded, and free of control characters. */
final class Text {
  private Text() {}

  static String required(String value, String field, int maxLength) {
    if (value == null || value.isBlank()) {
      throw Invalid.because(field + " is required");
    }
    return bounded(value.strip(), field, maxLength);
  }

  static String bounded(String value, String field, int maxLength) {
    if (value.length() > maxLength) {
      throw Invalid.because(field + " may have at most " + maxLength + " characters");
    }
    // Control characters end up in logs and terminals; nobody needs them in a name.
    if (value.chars().anyMatch(Character::isISOControl)) {
      throw Invalid.because(field + " must not contain control characters");
    }
    return value;
  }
}
