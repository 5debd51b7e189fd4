package dev.stele.cli;

import dev.stele.blob.BlobNotFoundException;
import dev.stele.blob.BlobRetainedException;
import dev.stele.blob.StorageRefusedException;
import dev.stele.k8s.api.InvalidResourceException;
import dev.stele.repo.CorruptBlobException;
import dev.stele.repo.NotARepositoryException;
import dev.stele.repo.RepositoryExistsException;
import dev.stele.repo.WrongPasswordException;
import dev.stele.snapshot.UnknownSnapshotException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** Turns an exception into the one line the user sees and the documented exit code. */
final class Failures {
  private Failures() {}

  record Outcome(int exitCode, String message) {}

  static Outcome classify(Throwable thrown) {
    Throwable t = unwrap(thrown);
    if (t instanceof CliException e) {
      return new Outcome(e.exitCode(), message(e));
    }
    if (t instanceof InvalidResourceException) {
      // A cluster resource the operator's helpers cannot act on; the message says what to change.
      return new Outcome(ExitCode.ERROR, message(t));
    }
    if (t instanceof WrongPasswordException) {
      return new Outcome(ExitCode.WRONG_PASSWORD, message(t));
    }
    if (t instanceof NotARepositoryException) {
      return new Outcome(ExitCode.NOT_FOUND, message(t) + "; " + CHECK_REPO);
    }
    if (t instanceof UnknownSnapshotException) {
      return new Outcome(ExitCode.NOT_FOUND, message(t));
    }
    if (t instanceof CorruptBlobException) {
      return new Outcome(ExitCode.DAMAGED, message(t));
    }
    if (t instanceof BlobNotFoundException) {
      // The repository opened, so a blob it names is missing: damage, not a user typo.
      return new Outcome(ExitCode.DAMAGED, "missing blob " + message(t));
    }
    if (t instanceof RepositoryExistsException || t instanceof BlobRetainedException) {
      return new Outcome(ExitCode.ERROR, message(t));
    }
    if (t instanceof StorageRefusedException e) {
      return refused(e);
    }
    if (t instanceof NoSuchFileException e) {
      return new Outcome(ExitCode.NOT_FOUND, fileOf(e) + reasonOr(e, "no such file or directory"));
    }
    if (t instanceof AccessDeniedException e) {
      return new Outcome(ExitCode.ERROR, fileOf(e) + "permission denied; " + FIX_PERMISSIONS);
    }
    if (t instanceof FileSystemException e) {
      return new Outcome(ExitCode.ERROR, fileOf(e) + reasonOr(e, kindOf(e)));
    }
    if (t instanceof IOException) {
      return new Outcome(ExitCode.ERROR, message(t));
    }
    if (t instanceof IllegalArgumentException) {
      return new Outcome(ExitCode.USAGE, message(t));
    }
    if (t instanceof OutOfMemoryError) {
      return new Outcome(
          ExitCode.ERROR, "out of memory (raise -Xmx through STELE_JAVA_OPTS, e.g. -Xmx1g)");
    }
    return new Outcome(ExitCode.ERROR, "internal error: " + message(t) + " (rerun with --debug)");
  }

  private static final String CHECK_REPO = "check --repo or STELE_REPO";
  private static final String FIX_PERMISSIONS =
      "run as a user allowed there, or fix its permissions";

  /** The store already named the place and the problem; this says what to do about it. */
  private static Outcome refused(StorageRefusedException e) {
    String advice =
        switch (e.problem()) {
          case NOT_A_DIRECTORY -> CHECK_REPO + ": it must name a repository directory";
          case NO_SPACE ->
              "free some space and run the command again (nothing half-written was kept)";
          case READ_ONLY -> "remount it read-write, or use a repository you may write to";
          case PERMISSION_DENIED -> FIX_PERMISSIONS;
          case WRITE_FAILED ->
              "nothing half-written was kept; run the command again once it is fixed";
        };
    int code =
        e.problem() == StorageRefusedException.Problem.NOT_A_DIRECTORY
            ? ExitCode.NOT_FOUND
            : ExitCode.ERROR;
    return new Outcome(code, message(e) + "; " + advice);
  }

  /** "path: ", or nothing when the exception names no path. */
  private static String fileOf(FileSystemException e) {
    return e.getFile() == null ? "" : e.getFile() + ": ";
  }

  private static String reasonOr(FileSystemException e, String otherwise) {
    return e.getReason() == null || e.getReason().isBlank() ? otherwise : e.getReason();
  }

  /** What the JDK's reasonless subclasses mean; their message is only the path. */
  private static String kindOf(FileSystemException e) {
    if (e instanceof NotDirectoryException) {
      return "not a directory";
    }
    if (e instanceof DirectoryNotEmptyException) {
      return "directory not empty";
    }
    if (e instanceof FileAlreadyExistsException) {
      return "already exists";
    }
    return e.getClass().getSimpleName();
  }

  /** Never null nor blank: some exceptions (ClosedByInterruptException, say) carry no message. */
  private static String message(Throwable t) {
    String m = t.getMessage();
    return m == null || m.isBlank() ? t.getClass().getSimpleName() : m;
  }

  /** The exception that says what went wrong, under wrappers that only carry it. */
  static Throwable unwrap(Throwable t) {
    Throwable current = t;
    while ((current instanceof UncheckedIOException
            || current instanceof ExecutionException
            || current instanceof CompletionException
            || (current.getClass() == IOException.class
                && current.getCause() instanceof IOException))
        && current.getCause() != null) {
      current = current.getCause();
    }
    return current;
  }
}
