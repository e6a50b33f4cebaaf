package io.floe.bootstrap;

/**
 * How a value appears in a line of the text log: as itself, except for what would end the line or
 * hide part of it. Line breaks (CR, LF, NEL, U+2028, U+2029) and every other control character
 * become {@code \n}, {@code \r}, {@code \t} or {@code \\uXXXX}, so that text a client chose (a
 * table name, a message quoting it) can never start a log line of its own.
 */
final class LogText {
  private LogText() {}

  static String escape(String text) {
    if (text == null) {
      return null;
    }
    int first = 0;
    while (first < text.length() && !needsEscape(text.charAt(first))) {
      first++;
    }
    if (first == text.length()) {
      return text;
    }
    StringBuilder out = new StringBuilder(text.length() + 16).append(text, 0, first);
    for (int i = first; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (needsEscape(c)) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.toString();
  }

  /** A control character (C0, DEL, C1 with NEL among them) or a line or paragraph separator. */
  private static boolean needsEscape(char c) {
    return Character.isISOControl(c) || c == '\u2028' || c == '\u2029';
  }
}
