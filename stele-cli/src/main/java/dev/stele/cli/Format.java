package dev.stele.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.stele.repo.Json;
import dev.stele.snapshot.FileName;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/** How numbers, sizes, times and JSON look in output. */
public final class Format {
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneId.systemDefault());

  private Format() {}

  /** {@code 1536} → {@code 1.5 KiB}. */
  public static String bytes(long n) {
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
  public static String time(Instant instant) {
    return instant == null ? "-" : TIME.format(instant);
  }

  /** A timestamp as the Kubernetes API holds it (ISO-8601), in local time; the text if odd. */
  public static String apiTime(String iso) {
    Instant t = instant(iso);
    return t != null ? time(t) : iso == null || iso.isBlank() ? "-" : iso;
  }

  /** An ISO-8601 timestamp, or null if absent or unreadable. */
  public static Instant instant(String iso) {
    if (iso == null || iso.isBlank()) {
      return null;
    }
    try {
      return java.time.OffsetDateTime.parse(iso).toInstant();
    } catch (java.time.format.DateTimeParseException e) {
      return null;
    }
  }

  /** {@code 29d}, {@code 5h}, {@code 12m}, {@code 40s}: kubectl's short ages, rounded down. */
  public static String age(Duration d) {
    long s = Math.max(0, d.toSeconds());
    if (s >= 2 * 86400) {
      return s / 86400 + "d";
    }
    if (s >= 2 * 3600) {
      return s / 3600 + "h";
    }
    if (s >= 2 * 60) {
      return s / 60 + "m";
    }
    return s + "s";
  }

  /** Snapshot source paths as a person reads them ({@code FileName.display}). */
  static List<String> paths(List<String> paths) {
    return paths.stream().map(FileName::display).toList();
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
