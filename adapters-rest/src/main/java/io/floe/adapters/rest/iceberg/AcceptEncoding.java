package io.floe.adapters.rest.iceberg;

import java.util.Locale;

/** What an {@code Accept-Encoding} header (RFC 9110, 12.5.3) allows. */
final class AcceptEncoding {
  private AcceptEncoding() {}

  /**
   * Whether gzip is acceptable: named ({@code gzip} or its alias {@code x-gzip}) or covered by
   * {@code *}, with a quality above zero. A header that names it with {@code q=0} refuses it,
   * whatever {@code *} says.
   */
  static boolean allowsGzip(String header) {
    if (header == null) {
      return false;
    }
    Boolean named = null;
    boolean wildcard = false;
    for (String item : header.split(",", -1)) {
      String[] parts = item.split(";", -1);
      String coding = parts[0].strip().toLowerCase(Locale.ROOT);
      boolean acceptable = quality(parts) > 0;
      if (coding.equals("gzip") || coding.equals("x-gzip")) {
        named = named == null ? acceptable : named || acceptable;
      } else if (coding.equals("*")) {
        wildcard = acceptable;
      }
    }
    return named != null ? named : wildcard;
  }

  private static double quality(String[] parts) {
    for (int i = 1; i < parts.length; i++) {
      String parameter = parts[i].strip().toLowerCase(Locale.ROOT);
      if (parameter.startsWith("q=")) {
        try {
          return Double.parseDouble(parameter.substring(2));
        } catch (NumberFormatException e) {
          return 0; // a quality that is no number accepts nothing
        }
      }
    }
    return 1;
  }
}
