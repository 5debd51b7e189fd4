package dev.stele.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@code stele restore} says and exits with when the target or the data is not clean. */
class RestoreCommandTest {
  @TempDir Path tmp;
  Path source;
  Path target;
  Cli cli;

  @BeforeEach
  void backUp() throws IOException {
    source = tmp.resolve("source");
    target = tmp.resolve("target");
    Files.createDirectories(source.resolve("sub"));
    Files.writeString(source.resolve("hello.txt"), "hello, world\n");
    Files.writeString(source.resolve("sub/notes.txt"), "notes\n");
    byte[] random = new byte[300_000];
    new Random(1).nextBytes(random);
    Files.write(source.resolve("random.bin"), random);
    cli = new Cli(tmp.resolve("repo").toString(), "correct horse");
    assertThat(cli.run("repo", "init", "--kdf-memory", "64", "--kdf-iterations", "1").exitCode())
        .isZero();
    Cli.Run backup = cli.run("snapshot", "create", source.toString());
    assertThat(backup.exitCode()).as(backup.stderr()).isZero();
  }

  private Cli.Run restore() {
    return cli.run("restore", "latest:" + source, "--target", target.toString());
  }

  @Test
  void conflictsAreOneLineEachAndExitSix() throws IOException {
    Files.createDirectories(target.resolve("hello.txt"));
    Files.writeString(target.resolve("sub"), "mine");

    Cli.Run run = restore();

    assertThat(run.exitCode()).isEqualTo(ExitCode.WARNINGS);
    assertThat(run.errorLines())
        .containsExactly(
            "warning: "
                + target
                + "/hello.txt: is a directory in the target, a file in the snapshot: not restored",
            "warning: "
                + target
                + "/sub: is a file in the target, a directory in the snapshot: not restored");
    assertThat(run.stdout()).contains("warnings: 2 (see above)");
    assertThat(target.resolve("random.bin")).hasSameBinaryContentAs(source.resolve("random.bin"));
  }

  @Test
  void aSymlinkInTheTargetIsReplacedAndWhatItPointsAtIsUntouched() throws IOException {
    Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
    Files.writeString(elsewhere.resolve("notes.txt"), "keep");
    Files.createDirectories(target);
    Files.createSymbolicLink(target.resolve("sub"), elsewhere);

    Cli.Run run = restore();

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(elsewhere.resolve("notes.txt")).hasContent("keep");
    assertThat(Files.isSymbolicLink(target.resolve("sub"))).isFalse();
    assertThat(target.resolve("sub/notes.txt")).hasContent("notes\n");
  }

  @Test
  void aFileWithDamagedDataIsRemovedNamedAndTheRestoreExitsFive() throws IOException {
    Path pack = corruptTheLargestPack();

    Cli.Run run = restore();

    assertThat(run.exitCode()).isEqualTo(ExitCode.DAMAGED);
    assertThat(run.errorLines())
        .anySatisfy(
            l ->
                assertThat(l)
                    .startsWith("warning: " + target + "/random.bin: not restored, and removed: ")
                    .contains(pack.getFileName().toString()));
    assertThat(run.errorLines())
        .last()
        .isEqualTo(
            "stele: restore incomplete: 1 file not restored from damaged data (named above)");
    assertThat(run.stderr()).doesNotContain("\tat ").doesNotContain(": null");
    assertThat(target.resolve("random.bin")).doesNotExist();
    assertThat(target.resolve("hello.txt")).hasContent("hello, world\n");
  }

  private Path corruptTheLargestPack() throws IOException {
    Path pack;
    try (Stream<Path> files = Files.walk(tmp.resolve("repo/packs"))) {
      pack =
          files
              .filter(Files::isRegularFile)
              .max(java.util.Comparator.comparingLong(p -> p.toFile().length()))
              .orElseThrow();
    }
    pack.toFile().setWritable(true);
    try (RandomAccessFile f = new RandomAccessFile(pack.toFile(), "rw")) {
      long middle = f.length() / 2;
      f.seek(middle);
      int b = f.read();
      f.seek(middle);
      f.write(b ^ 0xff);
    }
    return pack;
  }
}
