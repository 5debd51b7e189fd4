package dev.stele.cli;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Runs {@code stele} in-process with scripted environment variables and captured output. */
public final class Cli {
  public final Map<String, String> variables = new HashMap<>();
  public final Deque<String> typed = new ArrayDeque<>();
  public boolean terminal;

  /** The outcome of one run. */
  public record Run(int exitCode, byte[] stdoutBytes, String stderr) {
    public String stdout() {
      return new String(stdoutBytes, StandardCharsets.UTF_8);
    }

    public List<String> errorLines() {
      return stderr.lines().toList();
    }
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

  public Run run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    CliEnvironment.Terminal term =
        terminal ? prompt -> typed.isEmpty() ? null : typed.pop().toCharArray() : null;
    Map<String, String> snapshot = new HashMap<>(variables);
    CliEnvironment env = new CliEnvironment(snapshot::get, out, err, term, Clock.systemUTC());
    int code = Main.run(env, args);
    return new Run(code, out.toByteArray(), err.toString(StandardCharsets.UTF_8));
  }
}
