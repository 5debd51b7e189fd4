package dev.stele.k8s.api;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as users write them, in a resource's spec and on the command line alike: {@code 90s},
 * {@code 1h30m}, {@code 30d}, {@code 2w}, {@code 1y} (365 days), {@code 500ms}, or ISO-8601 such as
 * {@code P90D}. One grammar, so that what a Backup's {@code ttl} accepts, {@code stele backup
 * create --ttl} and {@code stele snapshot create --retain} accept too.
 */
public final class Durations {
  private static final Pattern PART = Pattern.compile("([0-9]+)(ms|s|m|h|d|w|y)");

  private Durations() {}

  /**
   * {@code text}, or {@code fallback} if it is null or blank.
   *
   * @throws IllegalArgumentException if it is not a duration
   */
  public static Duration parse(String text, Duration fallback) {
    if (text == null || text.isBlank()) {
      return fallback;
    }
    String t = text.strip().toLowerCase(Locale.ROOT);
    if (t.startsWith("p")) {
      try {
        return Duration.parse(t.toUpperCase(Locale.ROOT));
      } catch (DateTimeParseException e) {
        throw notADuration(text);
      }
    }
    Matcher m = PART.matcher(t);
    Duration total = Duration.ZERO;
    int end = 0;
    try {
      while (m.find() && m.start() == end) {
        long n = Long.parseLong(m.group(1));
        total =
            total.plus(
                switch (m.group(2)) {
                  case "ms" -> Duration.ofMillis(n);
                  case "s" -> Duration.ofSeconds(n);
                  case "m" -> Duration.ofMinutes(n);
                  case "h" -> Duration.ofHours(n);
                  case "d" -> Duration.ofDays(n);
                  case "w" -> Duration.ofDays(Math.multiplyExact(7, n));
                  default -> Duration.ofDays(Math.multiplyExact(365, n));
                });
        end = m.end();
      }
    } catch (ArithmeticException | NumberFormatException e) {
      throw notADuration(text);
    }
    if (end == 0 || end != t.length()) {
      throw notADuration(text);
    }
    return total;
  }

  private static IllegalArgumentException notADuration(String text) {
    return new IllegalArgumentException(
        "'" + text + "' is not a duration (write it like 90s, 1h30m or 30d)");
  }

  /** {@code 30d}, {@code 12h}, {@code 90s}: the shortest exact form. */
  public static String format(Duration d) {
    long s = d.toSeconds();
    if (s == 0) {
      return "0s";
    }
    if (s % 86400 == 0) {
      return s / 86400 + "d";
    }
    if (s % 3600 == 0) {
      return s / 3600 + "h";
    }
    if (s % 60 == 0) {
      return s / 60 + "m";
    }
    return s + "s";
  }
}
