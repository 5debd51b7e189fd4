package dev.stele.cli;

import dev.stele.k8s.api.Durations;
import java.time.Duration;

/** A positive duration given as an option, in Stele's one grammar ({@link Durations}). */
final class DurationOption {
  private DurationOption() {}

  /** {@code text} as {@code option}'s value, such as {@code 90d}, {@code 12h} or {@code 2w}. */
  static Duration parse(String option, String text) {
    Duration d;
    try {
      d = Durations.parse(text, null);
    } catch (IllegalArgumentException e) {
      d = null;
    }
    if (d == null) {
      throw CliException.usage(option + " " + text + ": not a duration (e.g. 90d, 12h, 2w)");
    }
    if (d.isNegative() || d.isZero()) {
      throw CliException.usage(option + " " + text + ": must be positive");
    }
    return d;
  }
}
