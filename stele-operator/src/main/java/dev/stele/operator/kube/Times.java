package dev.stele.operator.kube;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import org.jspecify.annotations.Nullable;

/**
 * Timestamps as the API server and the operator's status fields hold them (ISO-8601 text), read
 * leniently: a field that is missing or malformed counts as unknown, never as a failure.
 */
public final class Times {
  private Times() {}

  /** The instant {@code iso} names, or null if it is null or not ISO-8601. */
  public static @Nullable Instant parse(@Nullable String iso) {
    try {
      return iso == null ? null : Instant.parse(iso);
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
