package dev.stele.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.stele.repo.Json;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** How numbers, sizes, times and JSON look in output. */
final class Format {
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneId.systemDefault());

  private Format() {}

  /** {@code 1536} → {@code 1.5 KiB}. */
  static String bytes(long n) {
    if (n < 1024) {
      return n + " B";
    }
    String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double v = n;
    int u = -1;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return String.format(
        Locale.ROOT, v < 10 ? "%.2f %s" : v < 100 ? "%.1f %s" : "%.0f %s", v, units[u]);
  }

  static String rate(long bytes, double seconds) {
    return seconds <= 0 ? "-" : bytes((long) (bytes / seconds)) + "/s";
  }

  /** {@code 0:07}, {@code 1:02:03}. */
  static String duration(Duration d) {
    long s = Math.max(0, d.toSeconds());
    return s >= 3600
        ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
        : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
  }

  static String seconds(double s) {
    return String.format(Locale.ROOT, "%.2fs", s);
  }

  /** Local time, to the second. */
  static String time(Instant instant) {
    return instant == null ? "-" : TIME.format(instant);
  }

  /** Pretty-printed JSON with the repository's conventions (ISO-8601 instants, no nulls). */
  static String json(Object value) {
    try {
      return Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
