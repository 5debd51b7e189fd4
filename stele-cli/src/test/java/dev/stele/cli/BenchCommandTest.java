package dev.stele.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The hidden {@code stele bench} commands the benchmark scripts parse. */
class BenchCommandTest {
  @TempDir Path tmp;
  Path source;
  Cli cli;

  @BeforeEach
  void init() throws IOException {
    source = tmp.resolve("source");
    Cli.writeSampleSource(source);
    cli = new Cli(tmp.resolve("repo").toString(), "correct horse");
    assertThat(cli.run("repo", "init", "--kdf-memory", "64", "--kdf-iterations", "1").exitCode())
        .isZero();
  }

  @Test
  void warmBackupsReuseTheirParentAndSeeWhatChangedBetweenRuns() {
    Cli.Run run =
        cli.run(
            "bench",
            "warm-backup",
            "--runs",
            "3",
            "--before-run",
            "[ \"$RUN\" = 3 ] && echo changed >> '" + source.resolve("hello.txt") + "' || true",
            source.toString());

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.stdout().lines())
        .hasSize(3)
        .allMatch(
            l ->
                l.matches(
                    "run \\d wall [\\d.]+ cpu [\\d.]+ files \\d+ files_new \\d+ bytes_new \\d+"));
    assertThat(field(run, 0, "files_new")).isEqualTo(3);
    assertThat(field(run, 0, "bytes_new")).isGreaterThan(300_000);
    assertThat(field(run, 1, "files_new")).isZero(); // the first run is its parent: nothing read
    assertThat(field(run, 2, "files_new")).isEqualTo(1); // what --before-run changed

    Cli.Run list = cli.run("snapshot", "list");
    assertThat(list.stdout()).contains("3 snapshots");
  }

  @Test
  void openReportsTheIndexItLoaded() {
    assertThat(cli.run("snapshot", "create", source.toString()).exitCode()).isZero();

    Cli.Run run = cli.run("bench", "open");
    Cli.Run heap = cli.run("bench", "open", "--heap");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.stdout()).containsPattern("(?m)^index_chunks [1-9]\\d*$");
    // the heap is measured only when asked for: its full collections are not an open's cost
    assertThat(run.stdout()).doesNotContain("heap");
    assertThat(heap.exitCode()).as(heap.stderr()).isZero();
    assertThat(heap.stdout()).containsPattern("(?m)^index_heap_bytes -?\\d+$");
  }

  @Test
  void benchIsHiddenFromHelp() {
    Cli.Run help = cli.run("--help");

    assertThat(help.stdout() + help.stderr()).contains("snapshot").doesNotContain("bench");
  }

  /** The number after {@code key} on output line {@code line}. */
  private static long field(Cli.Run run, int line, String key) {
    List<String> words = List.of(run.stdout().lines().toList().get(line).split(" "));
    return Long.parseLong(words.get(words.indexOf(key) + 1));
  }
}
