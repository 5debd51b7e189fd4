package dev.stele.cli.cluster;

import dev.stele.cli.CliException;
import dev.stele.cli.ExitCode;
import dev.stele.k8s.api.Durations;
import java.time.Duration;
import picocli.CommandLine.Option;

/** {@code --wait} of {@code backup create} and {@code restore create}; see {@link PhaseWait}. */
final class WaitOptions {
  @Option(
      names = {"-w", "--wait"},
      description =
          "Wait until it has finished: exit 0 when Completed, "
              + ExitCode.WARNINGS
              + " when PartiallyFailed, "
              + ExitCode.ERROR
              + " when Failed.")
  boolean wait;

  /** How often the phase is read; hidden, for tests. */
  @Option(names = "--wait-interval", hidden = true, defaultValue = "1s")
  String interval;

  Duration interval() {
    try {
      Duration d = Durations.parse(interval, Duration.ofSeconds(1));
      if (d.isZero()) {
        throw new IllegalArgumentException("zero");
      }
      return d;
    } catch (IllegalArgumentException e) {
      throw CliException.usage("--wait-interval " + interval + ": not a duration such as 1s");
    }
  }
}
