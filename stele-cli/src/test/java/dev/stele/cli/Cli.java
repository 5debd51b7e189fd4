package dev.stele.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** Runs {@code stele} in-process with scripted environment variables and captured output. */
public final class Cli {
  public final Map<String, String> variables = new HashMap<>();
  public final Deque<String> typed = new ArrayDeque<>();
  public boolean terminal;

  /** The outcome of one run. */
  @SuppressWarnings("ArrayRecordComponent") // equals would be identity on the array: never compared
  public record Run(int exitCode, byte[] stdoutBytes, String stderr) {
    public String stdout() {
      return new String(stdoutBytes, StandardCharsets.UTF_8);
    }

    public List<String> errorLines() {
      return stderr.lines().toList();
    }
  }

  /**
   * Writes the small tree the command-line tests back up into {@code source}: a text file, a
   * compressible one, 300,000 random bytes in a nested directory, and a symbolic link.
   */
  public static void writeSampleSource(Path source) throws IOException {
    Files.createDirectories(source.resolve("sub/deeper"));
    Files.writeString(source.resolve("hello.txt"), "hello, world\n");
    Files.writeString(source.resolve("sub/notes.txt"), "notes\n".repeat(1000));
    byte[] random = new byte[300_000];
    new Random(1).nextBytes(random);
    Files.write(source.resolve("sub/deeper/random.bin"), random);
    Files.createSymbolicLink(source.resolve("link"), Path.of("hello.txt"));
  }

  public Cli(String repo, String password) {
    variables.put("STELE_REPO", repo);
    variables.put("STELE_PASSWORD", password);
  }

  public Cli with(String variable, String value) {
    if (value == null) {
      variables.remove(variable);
    } else {
      variables.put(variable, value);
    }
    return this;
  }

  /** An environment with no variables, no terminal and discarded output. */
  public static CliEnvironment environment() {
    return new CliEnvironment(
        name -> null,
        new ByteArrayOutputStream(),
        new ByteArrayOutputStream(),
        null,
        Clock.systemUTC());
  }

  public Run run(String... args) {
    return run(new ByteArrayOutputStream(), args);
  }

  /**
   * Runs with standard output into {@code out}, which another thread may read while the command
   * runs (to see that a waiting command has looked, say).
   */
  public Run run(ByteArrayOutputStream out, String... args) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    CliEnvironment.Terminal term =
        terminal ? prompt -> typed.isEmpty() ? null : typed.pop().toCharArray() : null;
    Map<String, String> snapshot = new HashMap<>(variables);
    CliEnvironment env = new CliEnvironment(snapshot::get, out, err, term, Clock.systemUTC());
    int code = Main.run(env, args);
    return new Run(code, out.toByteArray(), err.toString(StandardCharsets.UTF_8));
  }
}
