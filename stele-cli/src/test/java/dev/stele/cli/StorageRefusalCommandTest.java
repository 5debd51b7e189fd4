package dev.stele.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.testing.SmallFilesystem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a user sees when the storage under a filesystem repository refuses: one line naming the path
 * and what to do, a documented exit code, and a repository that is still whole. Full and read-only
 * disks are real (a small tmpfs), not simulated.
 */
class StorageRefusalCommandTest {
  @TempDir Path tmp;
  Path source;

  @BeforeEach
  void setUp() throws IOException {
    source = Files.createDirectories(tmp.resolve("source"));
    Files.writeString(source.resolve("a.txt"), "hello\n");
  }

  private static Cli.Run init(Cli cli) {
    Cli.Run run = cli.run("repo", "init", "--kdf-memory", "64", "--kdf-iterations", "1");
    assertThat(run.exitCode()).as(run.stderr()).isZero();
    return run;
  }

  @Test
  void aFullDiskStopsABackupAtAPackAnIndexBlobOrAManifestInOneLineAndLosesNothing()
      throws IOException {
    Path mounted = Files.createDirectories(tmp.resolve("small"));
    try (SmallFilesystem disk = SmallFilesystem.mount(mounted, 1 << 20)) {
      Path repo = mounted.resolve("repo");
      Cli cli = new Cli(repo.toString(), "pw");
      init(cli);
      Pattern line =
          Pattern.compile(
              Pattern.quote("stele: " + repo + ": no space left on device, cannot write ")
                  + "(packs|index|snapshots)/[0-9a-f]+"
                  + Pattern.quote(
                      "; free some space and run the command again (nothing half-written was"
                          + " kept)"));
      // Each round leaves one more page free, so the backup gets one blob further.
      List<String> stoppedAt = new ArrayList<>();
      Cli.Run backup = null;
      for (int pages = 0; pages < 16; pages++) {
        disk.fillLeaving(pages);
        backup = cli.run("snapshot", "create", source.toString());
        disk.free();
        if (backup.exitCode() == ExitCode.OK) {
          break;
        }
        assertThat(backup.exitCode()).as(backup.stderr()).isEqualTo(ExitCode.ERROR);
        assertThat(backup.errorLines()).hasSize(1);
        Matcher m = line.matcher(backup.errorLines().get(0));
        assertThat(m.matches()).as(backup.stderr()).isTrue();
        stoppedAt.add(m.group(1));
        try (Stream<Path> temporaries = Files.list(repo.resolve(".tmp"))) {
          assertThat(temporaries).isEmpty();
        }
        assertThat(cli.run("snapshot", "list").stdout()).contains("0 snapshots");
      }
      assertThat(backup.exitCode()).as(backup.stderr()).isZero();
      assertThat(stoppedAt).contains("packs", "index", "snapshots");
      assertThat(cli.run("snapshot", "list").stdout()).contains("1 snapshot\n");
      Cli.Run verify = cli.run("verify", "--read-data");
      assertThat(verify.exitCode()).as(verify.stdout() + verify.stderr()).isZero();
      assertThat(verify.stdout()).contains("no problems found");
    }
  }

  @Test
  void aReadOnlyFilesystemRefusesABackupInOneLineAndStillLists() throws IOException {
    Path mounted = Files.createDirectories(tmp.resolve("small"));
    try (SmallFilesystem disk = SmallFilesystem.mount(mounted, 1 << 20)) {
      Path repo = mounted.resolve("repo");
      Cli cli = new Cli(repo.toString(), "pw");
      init(cli);
      disk.readOnly(true);
      try {
        Cli.Run backup = cli.run("snapshot", "create", source.toString());
        assertThat(backup.exitCode()).isEqualTo(ExitCode.ERROR);
        assertThat(backup.errorLines()).hasSize(1);
        assertThat(backup.errorLines().get(0))
            .startsWith("stele: " + repo + ": read-only file system, cannot write packs/")
            .endsWith("; remount it read-write, or use a repository you may write to");
        Cli.Run list = cli.run("snapshot", "list");
        assertThat(list.exitCode()).as(list.stderr()).isZero();
      } finally {
        disk.readOnly(false);
      }
    }
  }

  @Test
  void aRepositoryPathThatIsAFileIsOneLineExitingFourAndTheFileIsUntouched() throws IOException {
    Path file = Files.writeString(tmp.resolve("notes.txt"), "mine");
    for (Path repo : List.of(file, file.resolve("repo"))) {
      Cli cli = new Cli(repo.toString(), "pw");
      for (Cli.Run run :
          List.of(cli.run("snapshot", "list"), cli.run("snapshot", "create", source.toString()))) {
        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCode.NOT_FOUND);
        assertThat(run.errorLines())
            .containsExactly(
                "stele: "
                    + file
                    + " is not a directory; check --repo or STELE_REPO: it must name a repository"
                    + " directory");
      }
    }
    assertThat(Files.readString(file)).isEqualTo("mine");
  }

  @Test
  void aMissingRepositoryDirectoryIsNamedWithWhatToCheck() {
    Path missing = tmp.resolve("no-such-dir");
    Cli.Run run = new Cli(missing.toString(), "pw").run("snapshot", "create", source.toString());
    assertThat(run.exitCode()).isEqualTo(ExitCode.NOT_FOUND);
    assertThat(run.errorLines())
        .containsExactly(
            "stele: "
                + missing
                + " is not a Stele repository (no stele.format); check --repo or STELE_REPO");
    assertThat(missing).doesNotExist();
  }
}
