package dev.stele.operator.kube;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as Kubernetes users write them: {@code 90s}, {@code 1h30m}, {@code 30d}. */
public final class Durations {
  private static final Pattern PART = Pattern.compile("([0-9]+)(ms|s|m|h|d)");

  private Durations() {}

  /** {@code text}, or {@code fallback} if it is null or blank. */
  public static Duration parse(String text, Duration fallback) {
    if (text == null || text.isBlank()) {
      return fallback;
    }
    Matcher m = PART.matcher(text.strip());
    Duration total = Duration.ZERO;
    int end = 0;
    while (m.find() && m.start() == end) {
      long n = Long.parseLong(m.group(1));
      total =
          total.plus(
              switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofDays(n);
              });
      end = m.end();
    }
    if (end == 0 || end != text.strip().length()) {
      throw new IllegalArgumentException(
          "'" + text + "' is not a duration (write it like 90s, 1h30m or 30d)");
    }
    return total;
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
