package dev.stele.operator.location;

import dev.stele.blob.Retention;
import dev.stele.k8s.api.Durations;
import java.time.Duration;
import java.util.Locale;

/** The retention a location's repositories give their blobs: a mode and a minimum period. */
public record Lock(Retention.Mode mode, Duration minimum) {
  static final Lock NONE = new Lock(Retention.Mode.NONE, Duration.ZERO);

  /** {@code compliance/30d}, or {@code none}. */
  @Override
  public String toString() {
    return mode == Retention.Mode.NONE
        ? "none"
        : mode.name().toLowerCase(Locale.ROOT) + "/" + Durations.format(minimum);
  }

  /** The inverse of {@link #toString()}; null for null. */
  public static Lock parse(String text) {
    if (text == null) {
      return null;
    }
    if (text.equals("none")) {
      return NONE;
    }
    int slash = text.indexOf('/');
    return new Lock(
        Retention.Mode.valueOf(text.substring(0, slash).toUpperCase(Locale.ROOT)),
        Durations.parse(text.substring(slash + 1), Duration.ZERO));
  }
}
