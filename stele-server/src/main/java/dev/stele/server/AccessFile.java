package dev.stele.server;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * The access file, read again when {@code recheck} has passed since the last reading, so that a
 * changed ConfigMap counts within seconds, without a restart. A file that cannot be read or parsed
 * refuses every request with its one-line reason until it is mended: falling back to the previous
 * rules could keep access that the change meant to take away.
 */
final class AccessFile {
  private final Path file;
  private final Clock clock;
  private final Duration recheck;
  private @Nullable AccessRules rules;
  private @Nullable IOException problem;
  private Instant read = Instant.MIN;

  AccessFile(Path file, Clock clock, Duration recheck) {
    this.file = file;
    this.clock = clock;
    this.recheck = recheck;
  }

  /** The rules in force. */
  synchronized AccessRules rules() throws IOException {
    Instant now = clock.instant();
    if (read.equals(Instant.MIN) || !now.isBefore(read.plus(recheck))) {
      read = now;
      try {
        rules = AccessRules.read(file);
        problem = null;
      } catch (IOException e) {
        rules = null;
        problem = e;
      }
    }
    if (rules == null) {
      throw new IOException(problem == null ? "no access rules" : problem.getMessage(), problem);
    }
    return rules;
  }
}
