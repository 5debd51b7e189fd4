package dev.stele.blob;

import java.io.IOException;
import org.jspecify.annotations.Nullable;

/**
 * The storage under a store refused it as a whole, not one blob: the location is no directory, the
 * disk is full, the filesystem is read-only, or the user may not write there. The message names the
 * location, the problem, and the blob being written; {@link #problem()} lets a caller say what to
 * do about it. A create that fails this way left nothing half-written visible.
 */
public final class StorageRefusedException extends IOException {
  private static final long serialVersionUID = 1L;

  /** What went wrong, each with the words the message uses (a failed write adds the system's). */
  public enum Problem {
    NOT_A_DIRECTORY("is not a directory"),
    NO_SPACE("no space left on device"),
    READ_ONLY("read-only file system"),
    PERMISSION_DENIED("permission denied"),
    WRITE_FAILED("write failed");

    private final String words;

    Problem(String words) {
      this.words = words;
    }
  }

  private final Problem problem;

  /**
   * @param location the directory or file the problem is about
   * @param blob the blob being written, or null if none was
   */
  public StorageRefusedException(
      String location, Problem problem, @Nullable String blob, @Nullable IOException cause) {
    super(message(location, problem, blob, cause), cause);
    this.problem = problem;
  }

  private static String message(
      String location, Problem problem, @Nullable String blob, @Nullable IOException cause) {
    String what = blob == null ? "" : "cannot write " + blob;
    return switch (problem) {
      case NOT_A_DIRECTORY -> location + " " + problem.words + (blob == null ? "" : ", " + what);
      case WRITE_FAILED -> location + ": " + (blob == null ? problem.words : what) + detail(cause);
      default -> location + ": " + problem.words + (blob == null ? "" : ", " + what);
    };
  }

  private static String detail(@Nullable IOException cause) {
    return cause == null || cause.getMessage() == null ? "" : ": " + cause.getMessage();
  }

  public Problem problem() {
    return problem;
  }
}
