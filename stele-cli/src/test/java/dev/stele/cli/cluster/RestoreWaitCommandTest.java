package dev.stele.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.cli.Cli;
import dev.stele.cli.ExitCode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code stele restore-wait}, the init container of a restored pod. */
class RestoreWaitCommandTest {
  @TempDir Path dir;

  @Test
  void returnsOnceEveryVolumeHasItsMarker() throws Exception {
    Path a = Files.createDirectories(dir.resolve("a"));
    Path b = Files.createDirectories(dir.resolve("b"));
    // a is done already; b is marked later, and a marker of another restore does not count.
    Files.createDirectories(a.resolve(".stele"));
    Files.writeString(a.resolve(".stele/uid-1"), "0123456789abcdef\n");
    Files.createDirectories(b.resolve(".stele"));
    Files.writeString(b.resolve(".stele/uid-0"), "");
    Thread marker =
        new Thread(
            () -> {
              try {
                Thread.sleep(1500);
                Files.writeString(b.resolve(".stele/uid-1"), "");
              } catch (Exception e) {
                throw new AssertionError(e);
              }
            });
    marker.start();
    long started = System.nanoTime();
    Cli.Run run =
        new Cli("unused", "unused")
            .run("restore-wait", "--restore-uid", "uid-1", a.toString(), b.toString());
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    marker.join();
    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.stdout().lines().toList())
        .containsExactly(a + ": restored from snapshot 01234567", b + ": restored");
    assertThat(millis).isBetween(1500L, 4000L);
  }

  @Test
  void theRestoreUidIsRequired() {
    Cli.Run run = new Cli("unused", "unused").run("restore-wait", dir.toString());
    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(run.stderr()).contains("--restore-uid");
  }
}
