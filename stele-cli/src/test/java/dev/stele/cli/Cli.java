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
final class Cli {
  final Map<String, String> variables = new HashMap<>();
  final Deque<String> typed = new ArrayDeque<>();
  boolean terminal;

  /** The outcome of one run. */
  record Run(int exitCode, byte[] stdoutBytes, String stderr) {
    String stdout() {
      return new String(stdoutBytes, StandardCharsets.UTF_8);
    }

    List<String> errorLines() {
      return stderr.lines().toList();
    }
  }

  Cli(String repo, String password) {
    variables.put("STELE_REPO", repo);
    variables.put("STELE_PASSWORD", password);
  }

  Cli with(String variable, String value) {
    if (value == null) {
      variables.remove(variable);
    } else {
      variables.put(variable, value);
    }
    return this;
  }

  Run run(String... args) {
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
