package io.floe.domain;

/**
 * The name of a table or view inside a namespace. Any printable Unicode text of 1 to 255
 * characters, without '/', '\' or control characters, not "." or "..", and without leading or
 * trailing whitespace. Case is kept and compared exactly, as engines do.
 */
public record TableName(String value) {
  public static final int MAX_LENGTH = 255;

  public TableName {
    if (value == null || value.isEmpty()) {
      throw new InvalidNameException("a table name must not be empty");
    }
    if (value.length() > MAX_LENGTH) {
      throw new InvalidNameException(
          "table name '" + Names.printable(value) + "' is longer than " + MAX_LENGTH + " characters");
    }
    if (value.equals(".") || value.equals("..")) {
      throw new InvalidNameException("table name '" + value + "' is reserved");
    }
    if (!value.strip().equals(value)) {
      throw new InvalidNameException(
          "table name '" + Names.printable(value) + "' must not start or end with whitespace");
    }
    value.codePoints().forEach(cp -> {
      if (Character.isISOControl(cp) || cp == '/' || cp == '\\') {
        throw new InvalidNameException(
            "table name '" + Names.printable(value)
                + "' contains '/', '\\' or a control character, which are not allowed");
      }
    });
  }

  /**
   * The name as it may appear in a storage path: characters other than ASCII letters, digits, '-'
   * and '_' become '_', so that no name can steer a path.
   */
  public String pathSegment() {
    StringBuilder out = new StringBuilder();
    value.codePoints().limit(64).forEach(cp -> out.append(
        (cp < 128 && (Character.isLetterOrDigit(cp) || cp == '-' || cp == '_')) ? (char) cp : '_'));
    return out.toString();
  }

  @Override
  public String toString() {
    return value;
  }
}
