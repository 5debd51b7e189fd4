package dev.stele.cli;

import dev.stele.blob.BlobNotFoundException;
import dev.stele.blob.BlobRetainedException;
import dev.stele.operator.InvalidResourceException;
import dev.stele.repo.CorruptBlobException;
import dev.stele.repo.NotARepositoryException;
import dev.stele.repo.RepositoryExistsException;
import dev.stele.repo.WrongPasswordException;
import dev.stele.snapshot.UnknownSnapshotException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** Turns an exception into the one line the user sees and the documented exit code. */
final class Failures {
  private Failures() {}

  record Outcome(int exitCode, String message) {}

  static Outcome classify(Throwable thrown) {
    Throwable t = unwrap(thrown);
    if (t instanceof CliException e) {
      return new Outcome(e.exitCode(), e.getMessage());
    }
    if (t instanceof InvalidResourceException) {
      // A cluster resource the operator's helpers cannot act on; the message says what to change.
      return new Outcome(ExitCode.ERROR, t.getMessage());
    }
    if (t instanceof WrongPasswordException) {
      return new Outcome(ExitCode.WRONG_PASSWORD, t.getMessage());
    }
    if (t instanceof NotARepositoryException || t instanceof UnknownSnapshotException) {
      return new Outcome(ExitCode.NOT_FOUND, t.getMessage());
    }
    if (t instanceof CorruptBlobException) {
      return new Outcome(ExitCode.DAMAGED, t.getMessage());
    }
    if (t instanceof BlobNotFoundException) {
      // The repository opened, so a blob it names is missing: damage, not a user typo.
      return new Outcome(ExitCode.DAMAGED, "missing blob " + t.getMessage());
    }
    if (t instanceof RepositoryExistsException) {
      return new Outcome(ExitCode.ERROR, t.getMessage());
    }
    if (t instanceof BlobRetainedException) {
      return new Outcome(ExitCode.ERROR, t.getMessage());
    }
    if (t instanceof NoSuchFileException e) {
      String reason = e.getReason() == null ? "no such file or directory" : e.getReason();
      return new Outcome(ExitCode.NOT_FOUND, e.getFile() + ": " + reason);
    }
    if (t instanceof AccessDeniedException e) {
      return new Outcome(ExitCode.ERROR, e.getFile() + ": permission denied");
    }
    if (t instanceof FileSystemException e) {
      // "path: No space left on device" and friends
      return new Outcome(
          ExitCode.ERROR, (e.getFile() == null ? "" : e.getFile() + ": ") + reasonOf(e));
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

  private static String reasonOf(FileSystemException e) {
    return e.getReason() != null ? e.getReason() : message(e);
  }

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
