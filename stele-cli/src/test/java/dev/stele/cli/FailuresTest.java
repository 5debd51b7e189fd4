package dev.stele.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.blob.BlobNotFoundException;
import dev.stele.blob.StorageRefusedException;
import dev.stele.blob.StorageRefusedException.Problem;
import dev.stele.k8s.api.InvalidResourceException;
import dev.stele.repo.NotARepositoryException;
import dev.stele.repo.RepositoryExistsException;
import dev.stele.snapshot.UnknownSnapshotException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

class FailuresTest {
  @Test
  void noExceptionWithoutMessageOrPathPrintsNull() {
    List<Throwable> silent =
        List.of(
            new CliException(ExitCode.USAGE, null),
            new InvalidResourceException(null),
            new NotARepositoryException(null),
            new UnknownSnapshotException(null),
            new RepositoryExistsException(null),
            new BlobNotFoundException(null),
            new StorageRefusedException("/r", Problem.WRITE_FAILED, null, new IOException()),
            new NoSuchFileException(null),
            new AccessDeniedException(null),
            new NotDirectoryException(null),
            new FileSystemException(null),
            new FileSystemException(null, null, null),
            new IOException(),
            new ClosedByInterruptException(),
            new UncheckedIOException(new IOException()),
            new ExecutionException(null),
            new CompletionException(new IOException()),
            new IllegalArgumentException(),
            new IllegalStateException(),
            new NullPointerException(),
            new OutOfMemoryError());
    for (Throwable t : silent) {
      String message = Failures.classify(t).message();
      assertThat(message).as(t.getClass().getName()).isNotBlank().doesNotContain("null");
    }
  }

  @Test
  void reasonlessFileSystemExceptionsSayWhatHappenedToThePath() {
    assertThat(Failures.classify(new NotDirectoryException("/a")).message())
        .isEqualTo("/a: not a directory");
    assertThat(Failures.classify(new DirectoryNotEmptyException("/b")).message())
        .isEqualTo("/b: directory not empty");
    assertThat(Failures.classify(new FileAlreadyExistsException("/c")).message())
        .isEqualTo("/c: already exists");
    assertThat(Failures.classify(new ClosedByInterruptException()).message())
        .isEqualTo("ClosedByInterruptException");
  }

  @Test
  void aReadThatIsDeniedNamesTheFileAndWhatToDo() {
    assertThat(Failures.classify(new AccessDeniedException("/r/keys/00")))
        .isEqualTo(
            new Failures.Outcome(
                ExitCode.ERROR,
                "/r/keys/00: permission denied; run as a user allowed there, or fix its"
                    + " permissions"));
  }

  @Test
  void eachRefusalOfTheStorageSaysWhatToDoWithItsExitCode() {
    assertThat(refusal(Problem.NOT_A_DIRECTORY, null))
        .isEqualTo(
            new Failures.Outcome(
                ExitCode.NOT_FOUND,
                "/r is not a directory; check --repo or STELE_REPO: it must name a repository"
                    + " directory"));
    assertThat(refusal(Problem.NO_SPACE, "packs/00"))
        .isEqualTo(
            new Failures.Outcome(
                ExitCode.ERROR,
                "/r: no space left on device, cannot write packs/00; free some space and run the"
                    + " command again (nothing half-written was kept)"));
    assertThat(refusal(Problem.READ_ONLY, "index/01"))
        .isEqualTo(
            new Failures.Outcome(
                ExitCode.ERROR,
                "/r: read-only file system, cannot write index/01; remount it read-write, or use a"
                    + " repository you may write to"));
    assertThat(refusal(Problem.PERMISSION_DENIED, "keys/02"))
        .isEqualTo(
            new Failures.Outcome(
                ExitCode.ERROR,
                "/r: permission denied, cannot write keys/02; run as a user allowed there, or fix"
                    + " its permissions"));
    assertThat(refusal(Problem.WRITE_FAILED, "snapshots/03"))
        .isEqualTo(
            new Failures.Outcome(
                ExitCode.ERROR,
                "/r: cannot write snapshots/03: Input/output error; nothing half-written was"
                    + " kept; run the command again once it is fixed"));
  }

  private static Failures.Outcome refusal(Problem problem, String blob) {
    return Failures.classify(
        new StorageRefusedException("/r", problem, blob, new IOException("Input/output error")));
  }
}
