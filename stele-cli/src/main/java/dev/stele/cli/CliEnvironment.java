package dev.stele.cli;

import java.io.Console;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Everything a command takes from the process: environment variables, standard output (as text and
 * as raw bytes, for {@code cat}), standard error, the terminal if there is one, and the clock. The
 * real one comes from {@link #system()}; tests build their own.
 *
 * <p>Concurrency: the writers are shared by a command and its progress thread; {@link Progress}
 * serialises its own use of {@link #err()}.
 */
public final class CliEnvironment {
  private final Function<String, String> variables;
  private final OutputStream stdout;
  private final OutputStream stderr;
  private final PrintWriter out;
  private final PrintWriter err;
  private final Terminal terminal;
  private final Clock clock;

  /** A terminal: where passwords and confirmations are prompted for and progress is drawn. */
  public interface Terminal {
    /** Reads a password without echo; null at end of input. */
    char[] readPassword(String prompt);

    /** Reads a line, such as a yes or no answer; null at end of input. */
    default String readLine(String prompt) {
      char[] typed = readPassword(prompt);
      return typed == null ? null : new String(typed);
    }
  }

  public CliEnvironment(
      Function<String, String> variables,
      OutputStream stdout,
      OutputStream stderr,
      Terminal terminal,
      Clock clock) {
    this.variables = variables;
    this.stdout = stdout;
    this.stderr = stderr;
    this.out =
        new PrintWriter(
            new PrintStream(stdout, true, StandardCharsets.UTF_8), true, StandardCharsets.UTF_8);
    this.err =
        new PrintWriter(
            new PrintStream(stderr, true, StandardCharsets.UTF_8), true, StandardCharsets.UTF_8);
    this.terminal = terminal;
    this.clock = clock;
  }

  /** The real process: {@code System.getenv}, {@code System.out/err}, {@code System.console()}. */
  public static CliEnvironment system() {
    @SuppressWarnings("SystemConsoleNull") // on Java 17 null is how a missing terminal is told
    Console console = System.console();
    Terminal terminal =
        console == null
            ? null
            : new Terminal() {
              @Override
              public char[] readPassword(String prompt) {
                return console.readPassword("%s", prompt);
              }

              @Override
              public String readLine(String prompt) {
                return console.readLine("%s", prompt);
              }
            };
    return new CliEnvironment(System::getenv, System.out, System.err, terminal, Clock.systemUTC());
  }

  /** The same environment with some variables replaced (the demo runs commands this way). */
  public CliEnvironment withVariables(Map<String, String> overrides) {
    Map<String, String> copy = new HashMap<>(overrides);
    return new CliEnvironment(
        name -> copy.containsKey(name) ? copy.get(name) : variables.apply(name),
        stdout,
        stderr,
        terminal,
        clock);
  }

  public String variable(String name) {
    return variables.apply(name);
  }

  /**
   * Stele's directory in one of the user's XDG base directories: {@code $name/stele}, or {@code
   * $HOME/underHome/stele} when {@code name} is unset or empty (e.g. {@code XDG_CACHE_HOME} and
   * {@code .cache}); null if HOME is unset too.
   */
  @Nullable Path userDirectory(String name, String underHome) {
    String base = variable(name);
    if (base != null && !base.isEmpty()) {
      return Path.of(base, "stele");
    }
    String home = variable("HOME");
    return home == null || home.isEmpty() ? null : Path.of(home, underHome, "stele");
  }

  /** Standard output as bytes; flush {@link #out()} before writing here. */
  public OutputStream stdout() {
    return stdout;
  }

  public PrintWriter out() {
    return out;
  }

  public PrintWriter err() {
    return err;
  }

  /** The terminal, or null when not interactive (no prompts, no progress). */
  public Terminal terminal() {
    return terminal;
  }

  public boolean interactive() {
    return terminal != null;
  }

  public Clock clock() {
    return clock;
  }
}
