package dev.stele.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.cli.Cli;
import dev.stele.cli.ExitCode;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
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
    // a is done already; b is marked later, and a marker of another restore does not count. b is
    // named first, so a's line shows that b was looked at and found waiting.
    Files.createDirectories(a.resolve(".stele"));
    Files.writeString(a.resolve(".stele/uid-1"), "0123456789abcdef\n");
    Files.createDirectories(b.resolve(".stele"));
    Files.writeString(b.resolve(".stele/uid-0"), "");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    CompletableFuture<Cli.Run> running =
        CompletableFuture.supplyAsync(
            () ->
                new Cli("unused", "unused")
                    .run(
                        out, "restore-wait", "--restore-uid", "uid-1", b.toString(), a.toString()));
    ClusterFixture.awaitLine(out, a + ": restored from snapshot 01234567");
    assertThat(out.toString(StandardCharsets.UTF_8).lines())
        .containsExactly(a + ": restored from snapshot 01234567");
    assertThat(running).as("waiting for b").isNotDone();
    Files.writeString(b.resolve(".stele/uid-1"), "");

    Cli.Run run = running.get(30, TimeUnit.SECONDS);
    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.stdout().lines().toList())
        .containsExactly(a + ": restored from snapshot 01234567", b + ": restored");
  }

  @Test
  void theRestoreUidIsRequired() {
    Cli.Run run = new Cli("unused", "unused").run("restore-wait", dir.toString());
    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(run.stderr()).contains("--restore-uid");
  }
}
