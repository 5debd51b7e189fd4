package dev.stele.cli;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** Runs a command to its end, for tests that drive programs outside the JVM (podman, kubectl). */
public final class Processes {
  private Processes() {}

  /** How a command ended, and what it printed. */
  public record Result(int exitCode, String out, String err) {}

  /**
   * Runs {@code command} in {@code dir}, its output kept in files under {@code scratch} (a pipe
   * could fill and stall it); a command still running after {@code timeout} is killed and fails the
   * test.
   */
  public static Result run(Path scratch, Path dir, Duration timeout, String... command)
      throws Exception {
    Path out = Files.createTempFile(scratch, "out", ".txt");
    Path err = Files.createTempFile(scratch, "err", ".txt");
    Process process =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
      throw new AssertionError(String.join(" ", command) + " did not finish in " + timeout);
    }
    return new Result(
        process.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }
}
