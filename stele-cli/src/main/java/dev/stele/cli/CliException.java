package dev.stele.cli;

/**
 * A failure the user can fix, already phrased for them: the command line prints its message as one
 * line and exits with its code.
 */
public final class CliException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final int exitCode;

  public CliException(int exitCode, String message) {
    super(message);
    this.exitCode = exitCode;
  }

  /** With the failure it explains, which {@code --debug} shows. */
  public CliException(int exitCode, String message, Throwable cause) {
    super(message, cause);
    this.exitCode = exitCode;
  }

  public int exitCode() {
    return exitCode;
  }

  public static CliException usage(String message) {
    return new CliException(ExitCode.USAGE, message);
  }

  public static CliException notFound(String message) {
    return new CliException(ExitCode.NOT_FOUND, message);
  }
}
