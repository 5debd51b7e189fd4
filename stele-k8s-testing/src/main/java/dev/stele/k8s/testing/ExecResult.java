package dev.stele.k8s.testing;

import java.time.Duration;

/**
 * What a command run through {@code pods/exec} printed and how it ended, as an {@link ExecHandler}
 * says.
 *
 * @param stdout sent on channel 1
 * @param stderr sent on channel 2
 * @param exitCode 0 for success; any other is reported as a real server reports it
 *     (NonZeroExitCode, with the code in the Status' causes)
 * @param delay how long the command runs before its output and status are sent (a client that gives
 *     up first closes the connection, which ends the wait)
 */
public record ExecResult(String stdout, String stderr, int exitCode, Duration delay) {
  /** Success, printing {@code stdout}. */
  public static ExecResult ok(String stdout) {
    return new ExecResult(stdout, "", 0, Duration.ZERO);
  }

  /** Exit code {@code code}, printing {@code stderr}. */
  public static ExecResult exit(int code, String stderr) {
    return new ExecResult("", stderr, code, Duration.ZERO);
  }

  /** This result, sent only after {@code delay}. */
  public ExecResult after(Duration delay) {
    return new ExecResult(stdout, stderr, exitCode, delay);
  }
}
