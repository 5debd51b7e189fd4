package dev.stele.cli;

/** The documented exit codes of {@code stele}; {@code docs/cli.md} and {@code --help} list them. */
public final class ExitCode {
  public static final int OK = 0;
  public static final int ERROR = 1;
  public static final int USAGE = 2;
  public static final int WRONG_PASSWORD = 3;
  public static final int NOT_FOUND = 4;
  public static final int DAMAGED = 5;
  public static final int WARNINGS = 6;

  /** The {@code --help} footer. */
  static final String FOOTER =
      "%nExit codes:%n"
          + "  0  ok%n"
          + "  1  error%n"
          + "  2  usage error%n"
          + "  3  wrong password, or the password's key was removed%n"
          + "  4  not found: no repository, snapshot or path%n"
          + "  5  data damaged: verify found problems, snapshot list met an unreadable manifest,"
          + " repair left a snapshot incomplete, a blob is corrupted, or restore left out files"
          + " whose data is damaged%n"
          + "  6  completed with warnings: files skipped or unreadable, entries restore refused,"
          + " or a Backup or Restore"
          + " waited for (--wait) ended PartiallyFailed%n"
          + "%nEnvironment: STELE_REPO, STELE_PASSWORD, STELE_NEW_PASSWORD, STELE_USER (a repository"
          + " server's), STELE_JAVA_OPTS;"
          + " for backup, restore create|get|describe|logs, schedule, backup-location and"
          + " repository: KUBECONFIG, STELE_NAMESPACE.%n"
          + "See docs/cli.md for more.";

  private ExitCode() {}
}
