package dev.stele.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@code stele repair}: names what damage costs, writes only new files, and a backup heals. */
class RepairCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;
  Path repo;
  Path source;
  Cli cli;

  @BeforeEach
  void setUp() throws IOException {
    repo = tmp.resolve("repo");
    source = tmp.resolve("source");
    Cli.writeSampleSource(source);
    cli = new Cli(repo.toString(), "correct horse");
    assertThat(cli.run("repo", "init", "--kdf-memory", "64", "--kdf-iterations", "1").exitCode())
        .isZero();
  }

  /** Ways a pack file is damaged on disk. */
  enum Damage {
    TRUNCATED,
    FLIPPED_BYTE,
    DELETED
  }

  @ParameterizedTest
  @EnumSource(Damage.class)
  void aDamagedPackIsReportedAndHealedByBackingUpAgain(Damage damage) throws IOException {
    String id = createSnapshot();
    damageLargestPack(damage);
    Path damaged = tmp.resolve("before");
    assertThat(cli.run("restore", id + ":" + source, "--target", damaged.toString()).exitCode())
        .as("restore shows the damage")
        .isNotZero();
    List<String> before = files(repo);

    Cli.Run repair = cli.run("repair");

    assertThat(repair.exitCode()).as(repair.stderr()).isEqualTo(ExitCode.DAMAGED);
    assertThat(repair.stdout())
        .contains("damaged: packs/")
        .contains("incomplete")
        .contains("lost file: " + source.resolve("sub/deeper/random.bin"));
    if (damage == Damage.FLIPPED_BYTE) {
      // The byte is in random.bin's chunk (most of the pack); the pack's other chunks still serve.
      assertThat(repair.stdout())
          .doesNotContain("lost file: " + source.resolve("hello.txt"))
          .doesNotContain("lost file: " + source.resolve("sub/notes.txt"));
    }
    assertThat(repair.errorLines())
        .singleElement()
        .asString()
        .contains("back up the same data again to heal");
    assertThat(files(repo)).as("repair only adds files").containsAll(before);

    createSnapshot();
    Path restored = tmp.resolve("after");
    Cli.Run restore = cli.run("restore", id + ":" + source, "--target", restored.toString());
    assertThat(restore.exitCode()).as(restore.stderr()).isZero();
    assertThat(TreeComparison.compare(source, restored)).as("the old snapshot, healed").isEmpty();
    Cli.Run verify = cli.run("verify", "--read-data");
    assertThat(verify.exitCode()).as(verify.stderr()).isZero();

    List<String> healed = files(repo);
    Cli.Run again = cli.run("repair");
    assertThat(again.exitCode()).as(again.stderr()).isZero();
    assertThat(again.stdout()).contains("nothing to repair").doesNotContain("incomplete");
    assertThat(files(repo)).as("a second repair writes nothing").isEqualTo(healed);
  }

  @Test
  void repairOfAHealthyRepositoryWritesNothingAndExitsZero() throws IOException {
    createSnapshot();
    List<String> before = files(repo);
    Cli.Run run = cli.run("repair");
    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.stdout()).contains("nothing to repair").contains(": complete");
    assertThat(files(repo)).isEqualTo(before);
  }

  private String createSnapshot() throws IOException {
    Cli.Run run = cli.run("snapshot", "create", source.toString(), "--json");
    assertThat(run.exitCode()).as(run.stderr()).isZero();
    return JSON.readTree(run.stdout()).get("id").asText();
  }

  @Test
  void aDeletedIndexFileCostsNoDataAndRepairRebuildsItFromThePacks() throws IOException {
    String id = createSnapshot();
    try (Stream<Path> index = Files.list(repo.resolve("index"))) {
      for (Path p : index.toList()) {
        Files.delete(p);
      }
    }
    // Readers take lost index entries back from the pack footers, saying so; repair makes it last.
    Path before = tmp.resolve("before");
    Cli.Run restore = cli.run("restore", id + ":" + source, "--target", before.toString());
    assertThat(restore.exitCode()).as(restore.stderr()).isZero();
    assertThat(restore.stderr()).contains("re-indexed from its footer");
    assertThat(TreeComparison.compare(source, before)).isEmpty();

    Cli.Run repair = cli.run("repair");

    assertThat(repair.exitCode()).as(repair.stderr()).isZero();
    assertThat(repair.stdout()).contains("indexed from its footer: packs/").contains(": complete");
    Path restored = tmp.resolve("after");
    assertThat(cli.run("restore", id + ":" + source, "--target", restored.toString()).exitCode())
        .isZero();
    assertThat(TreeComparison.compare(source, restored)).isEmpty();
  }

  /** Damages the largest pack file (the one holding random.bin). */
  private void damageLargestPack(Damage damage) throws IOException {
    Path pack;
    try (Stream<Path> files = Files.walk(repo.resolve("packs"))) {
      pack =
          files
              .filter(Files::isRegularFile)
              .max(Comparator.comparingLong(p -> p.toFile().length()))
              .orElseThrow();
    }
    pack.toFile().setWritable(true);
    switch (damage) {
      case DELETED -> Files.delete(pack);
      case TRUNCATED -> {
        try (RandomAccessFile f = new RandomAccessFile(pack.toFile(), "rw")) {
          f.setLength(f.length() / 2);
        }
      }
      case FLIPPED_BYTE -> {
        try (RandomAccessFile f = new RandomAccessFile(pack.toFile(), "rw")) {
          long middle = f.length() / 2;
          f.seek(middle);
          int b = f.read();
          f.seek(middle);
          f.write(b ^ 0xff);
        }
      }
    }
  }

  private static List<String> files(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      return files
          .filter(Files::isRegularFile)
          .map(root::relativize)
          .map(Path::toString)
          .sorted()
          .toList();
    }
  }
}
