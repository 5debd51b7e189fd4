package dev.stele.cli;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import picocli.CommandLine.Option;

/** {@code --as-of INSTANT}, shared by every command that only reads. */
final class AsOfOption {
  @Option(
      names = "--as-of",
      paramLabel = "INSTANT",
      description =
          "Read the repository as it was at INSTANT (ISO-8601, e.g. 2030-01-31T12:00:00Z): each"
              + " blob's newest version not newer than it. Needs a versioned store.")
  String asOf;

  /** The instant asked for, or null. */
  Instant instant() {
    if (asOf == null) {
      return null;
    }
    try {
      return Instant.parse(asOf);
    } catch (DateTimeParseException e) {
      try {
        return OffsetDateTime.parse(asOf).toInstant();
      } catch (DateTimeParseException e2) {
        throw CliException.usage(
            "--as-of " + asOf + ": not an ISO-8601 instant (e.g. 2030-01-31T12:00:00Z)");
      }
    }
  }
}
