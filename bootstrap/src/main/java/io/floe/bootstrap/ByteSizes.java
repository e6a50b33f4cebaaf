package io.floe.bootstrap;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * Reads sizes in bytes as {@code 123}, or with a binary unit: {@code 64k} (KiB), {@code 16m}
 * (MiB), {@code 1g} (GiB); a trailing {@code b} or {@code ib} is allowed ({@code 16MiB}).
 */
final class ByteSizes implements CommandLine.ITypeConverter<Long> {
  private static final Pattern SIZE = Pattern.compile("(\\d{1,12})\\s*([kmg]?)(i?b)?");

  @Override
  public Long convert(String value) {
    Matcher matcher = SIZE.matcher(value.strip().toLowerCase(Locale.ROOT));
    if (!matcher.matches() || Long.parseLong(matcher.group(1)) == 0) {
      throw new CommandLine.TypeConversionException(
          "'" + value + "' is not a size: use e.g. 16m, 512k or 1g (at least one byte)");
    }
    int shift = switch (matcher.group(2)) {
      case "k" -> 10;
      case "m" -> 20;
      case "g" -> 30;
      default -> 0;
    };
    try {
      return Math.multiplyExact(Long.parseLong(matcher.group(1)), 1L << shift);
    } catch (ArithmeticException e) {
      throw new CommandLine.TypeConversionException("'" + value + "' is too large");
    }
  }
}
