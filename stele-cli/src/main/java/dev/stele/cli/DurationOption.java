package dev.stele.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses durations as users write them: {@code 90d}, {@code 12h}, {@code 30m}, {@code 2w}. */
final class Durations {
  private static final Pattern SHORT = Pattern.compile("(\\d+)([smhdwy])");

  private Durations() {}

  /**
   * {@code N} followed by {@code s}, {@code m}, {@code h}, {@code d}, {@code w} or {@code y} (365
   * days), or an ISO-8601 duration such as {@code P90D}; must be positive.
   */
  static Duration parse(String option, String text) {
    Duration d;
    Matcher m = SHORT.matcher(text.trim().toLowerCase(Locale.ROOT));
    try {
      if (m.matches()) {
        long n = Long.parseLong(m.group(1));
        d =
            switch (m.group(2)) {
              case "s" -> Duration.ofSeconds(n);
              case "m" -> Duration.ofMinutes(n);
              case "h" -> Duration.ofHours(n);
              case "d" -> Duration.ofDays(n);
              case "w" -> Duration.ofDays(7 * n);
              default -> Duration.ofDays(365 * n);
            };
      } else {
        d = Duration.parse(text.trim().toUpperCase(Locale.ROOT));
      }
    } catch (DateTimeParseException | ArithmeticException | NumberFormatException e) {
      throw CliException.usage(option + " " + text + ": not a duration (e.g. 90d, 12h, 2w)");
    }
    if (d.isNegative() || d.isZero()) {
      throw CliException.usage(option + " " + text + ": must be positive");
    }
    return d;
  }
}
