package dev.stele.cli.cluster;

import dev.stele.cli.CliException;
import dev.stele.cli.ExitCode;
import dev.stele.k8s.api.RunPhase;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * {@code --wait}: reads a Backup's or Restore's phase again and again until it is final, printing
 * each change (and the status message, which says what the operator waits for), then turns the
 * final phase into an exit code: Completed 0, PartiallyFailed {@link ExitCode#WARNINGS}, Failed
 * {@link ExitCode#ERROR}. Stopping the command stops the waiting, never the work.
 */
final class PhaseWait {
  /** A phase and its message as last read. */
  record State(RunPhase phase, String message) {}

  private PhaseWait() {}

  static boolean isFinal(RunPhase phase) {
    return phase != null && phase.isFinal();
  }

  /**
   * Waits for {@code kind name} to reach a final phase; {@code read} returns null once the resource
   * is gone.
   */
  static State await(
      String kind, String name, Supplier<State> read, Duration interval, PrintWriter out)
      throws InterruptedException {
    out.printf(
        "Waiting for %s %s to finish; stopping this command does not stop the %s.%n",
        kind, name, kind);
    String shown = null;
    while (true) {
      State state = read.get();
      if (state == null) {
        throw new CliException(
            ExitCode.ERROR, kind + " " + name + " was deleted while waiting for it");
      }
      String line =
          (state.phase() == null ? "New" : state.phase())
              + (state.message() == null || state.message().isBlank()
                  ? ""
                  : ": " + state.message());
      if (!Objects.equals(line, shown)) {
        out.println("  " + line);
        out.flush();
        shown = line;
      }
      if (isFinal(state.phase())) {
        return state;
      }
      Thread.sleep(interval.toMillis());
    }
  }

  /**
   * The exit code of a finished {@code kind name}: prints how it ended and what to run next; a
   * Failed or FailedValidation one is a failure with its message.
   */
  static int outcome(
      String kind, String name, State state, String describe, PrintWriter out, PrintWriter err) {
    if (state.phase() == RunPhase.FAILED || state.phase() == RunPhase.FAILED_VALIDATION) {
      throw new CliException(
          ExitCode.ERROR,
          kind
              + " "
              + name
              + (state.phase() == RunPhase.FAILED ? " failed" : " failed validation")
              + (state.message() == null ? "" : ": " + state.message()));
    }
    out.printf(
        "%s %s finished with status %s. Run '%s' for details.%n",
        capitalized(kind), name, state.phase(), describe);
    if (state.phase() == RunPhase.PARTIALLY_FAILED) {
      err.println(
          "warning: "
              + kind
              + " "
              + name
              + " partially failed"
              + (state.message() == null ? "" : ": " + state.message()));
      return ExitCode.WARNINGS;
    }
    return ExitCode.OK;
  }

  private static String capitalized(String s) {
    return Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }
}
