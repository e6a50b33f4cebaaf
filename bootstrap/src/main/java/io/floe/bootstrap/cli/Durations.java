package io.floe.bootstrap.cli;

import io.floe.domain.DurationBounds;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * Reads durations as {@code 7d}, {@code 12h}, {@code 30m}, {@code 45s}, {@code 0} or ISO-8601,
 * from zero to a thousand years ({@link DurationBounds}).
 */
public final class Durations implements CommandLine.ITypeConverter<Duration> {
  private static final Pattern SHORT = Pattern.compile("(\\d+)\\s*([smhd]?)");

  @Override
  public Duration convert(String value) {
    Duration duration;
    try {
      duration = parse(value);
    } catch (RuntimeException e) {
      throw new CommandLine.TypeConversionException(
          "'" + value + "' is not a duration: use e.g. 7d, 12h, 30m, 45s or PT1H");
    }
    try {
      return DurationBounds.require(duration, "A duration");
    } catch (RuntimeException e) {
      throw new CommandLine.TypeConversionException("'" + value + "' is too long: "
          + e.getMessage());
    }
  }

  private static Duration parse(String value) {
    String text = value.strip().toLowerCase(Locale.ROOT);
    Matcher matcher = SHORT.matcher(text);
    if (matcher.matches()) {
      long amount = Long.parseLong(matcher.group(1));
      return switch (matcher.group(2)) {
        case "d" -> Duration.ofDays(amount);
        case "h" -> Duration.ofHours(amount);
        case "m" -> Duration.ofMinutes(amount);
        default -> Duration.ofSeconds(amount);
      };
    }
    return Duration.parse(value.strip().toUpperCase(Locale.ROOT));
  }
}
