package io.floe.domain;

/** Helpers shared by the name rules. */
final class Names {
  private Names() {}

  /** Renders an untrusted name for an error message without its control characters. */
  static String printable(String name) {
    return printable(name, 120);
  }

  /** Like {@link #printable(String)}, keeping up to {@code limit} code points. */
  static String printable(String name, int limit) {
    if (name == null) {
      return "null";
    }
    StringBuilder out = new StringBuilder();
    name.codePoints().limit(limit).forEach(cp -> {
      if (Character.isISOControl(cp)) {
        out.append(String.format("\\u%04x", cp));
      } else {
        out.appendCodePoint(cp);
      }
    });
    return out.toString();
  }
}
