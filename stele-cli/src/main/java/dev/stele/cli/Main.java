package dev.stele.cli;

import static java.util.Map.entry;

import ch.qos.logback.classic.Level;
import dev.stele.cli.cluster.BackupCommand;
import dev.stele.cli.cluster.BackupLocationCommand;
import dev.stele.cli.cluster.InstallCommand;
import dev.stele.cli.cluster.NodeAgentCommand;
import dev.stele.cli.cluster.OperatorCommand;
import dev.stele.cli.cluster.RepositoryCommand;
import dev.stele.cli.cluster.RestoreCreateCommand;
import dev.stele.cli.cluster.RestoreDescribeCommand;
import dev.stele.cli.cluster.RestoreGetCommand;
import dev.stele.cli.cluster.RestoreLogsCommand;
import dev.stele.cli.cluster.RestoreWaitCommand;
import dev.stele.cli.cluster.ScheduleCommand;
import dev.stele.cli.cluster.UninstallCommand;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * The {@code stele} command: parses the command line, runs one subcommand, and turns whatever it
 * throws into one line on standard error and a documented {@link ExitCode}. {@link #run} does all
 * of that against a {@link CliEnvironment}, so tests call it in-process; {@link #main} binds it to
 * the real process.
 */
@Command(
    name = "stele",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = "Deduplicated, compressed, encrypted, write-once backups.",
    footer = ExitCode.FOOTER)
public final class Main implements Callable<Integer> {
  /**
   * The subcommands by name, in the order {@code stele --help} lists them. The names repeat their
   * classes' {@code @Command} names ({@code CommandLineTest} checks each), so that finding the one
   * a run names reads no annotation: reading all of them cost every command some 25 ms.
   */
  private static final Map<String, Class<?>> COMMANDS =
      ordered(
          entry("repo", RepoCommand.class),
          entry("snapshot", SnapshotCommand.class),
          entry("ls", LsCommand.class),
          entry("cat", CatCommand.class),
          entry("find", FindCommand.class),
          entry("restore", RestoreCommand.class),
          entry("verify", VerifyCommand.class),
          entry("repair", RepairCommand.class),
          entry("maintenance", MaintenanceCommand.class),
          entry("server", ServerCommand.class),
          entry("demo", DemoCommand.class),
          entry("install", InstallCommand.class),
          entry("uninstall", UninstallCommand.class),
          entry("operator", OperatorCommand.class),
          entry("backup", BackupCommand.class),
          entry("schedule", ScheduleCommand.class),
          entry("backup-location", BackupLocationCommand.class),
          entry("repository", RepositoryCommand.class),
          entry("node-agent", NodeAgentCommand.class),
          entry("restore-wait", RestoreWaitCommand.class),
          entry("class-data-training", TrainingCommand.class),
          entry("bench", BenchCommand.class));

  /**
   * The commands that work on a repository and nothing else. On a local repository the launcher
   * runs them on the distribution's short class path ({@code lib/}, without {@code lib/remote/}'s
   * S3, Kubernetes and server clients), which starts some 0.1 s sooner: the JVM opens 16 jars
   * instead of 120. So these must not load a class from those clients on that path; {@code
   * ShortClassPathIT} runs each through the launcher to prove it.
   */
  static final List<String> LOCAL_COMMANDS =
      List.of(
          "repo",
          "snapshot",
          "ls",
          "cat",
          "find",
          "restore",
          "verify",
          "repair",
          "maintenance",
          "demo",
          "bench");

  /** {@code restore}'s subcommands for a cluster's Restores (see {@link RestoreCommand}). */
  private static final Map<String, Class<?>> RESTORE_CLUSTER_COMMANDS =
      ordered(
          entry("create", RestoreCreateCommand.class),
          entry("get", RestoreGetCommand.class),
          entry("describe", RestoreDescribeCommand.class),
          entry("logs", RestoreLogsCommand.class));

  @Option(
      names = "--debug",
      scope = ScopeType.INHERIT,
      description = "Show stack traces and debug logs.")
  boolean debug;

  @Option(
      names = {"-v", "--verbose"},
      scope = ScopeType.INHERIT,
      description = "Log what is happening (INFO level).")
  boolean verbose;

  @Option(
      names = "--log-format",
      scope = ScopeType.INHERIT,
      paramLabel = "FORMAT",
      description =
          "text (default): one short line per event; json: one JSON object per line, for a"
              + " log collector (what the operator and node agent containers use).")
  String logFormat;

  @Spec CommandSpec spec;

  final CliEnvironment env;

  Main(CliEnvironment env) {
    this.env = env;
  }

  public static void main(String[] args) {
    int code = run(CliEnvironment.system(), args);
    HttpSelectors.stop();
    System.exit(code);
  }

  /** Runs {@code stele args…} in {@code env}; returns the exit code. */
  public static int run(CliEnvironment env, String... args) {
    Preparation preparation = Preparation.start(args);
    List<String> options = optionsBeforeEnd(args);
    boolean debug = options.contains("--debug");
    boolean verbose = options.contains("--verbose") || options.contains("-v");
    String logFormat = logFormat(options);
    if (logFormat != null && !logFormat.matches("(?i)text|json")) {
      env.err().println("stele: --log-format " + logFormat + ": use text or json");
      env.err().flush();
      return ExitCode.USAGE;
    }
    Logging.use(
        debug ? Level.DEBUG : verbose ? Level.INFO : Level.WARN,
        "json".equalsIgnoreCase(logFormat));
    CommandLine cli = commandLine(env, args);
    Handlers handlers = new Handlers(preparation, env, debug);
    cli.setExecutionStrategy(handlers);
    cli.setExecutionExceptionHandler(handlers);
    cli.setParameterExceptionHandler(handlers);
    try {
      return cli.execute(args);
    } finally {
      env.out().flush();
      env.err().flush();
    }
  }

  /**
   * The command tree for {@code args}. Picocli builds each command's model by reflection (about 0.3
   * s for all of them), so only what this run can show is built: the branch of the subcommand that
   * the first argument names, none for a bare {@code --version}, and the whole tree for anything
   * else (no command, an unknown one, {@code --help}, an {@code @file}), so that help and errors
   * stay as they are. {@code restore}'s cluster subcommands are part of its branch only where the
   * whole tree is built, help is asked for, or the run names one.
   */
  static CommandLine commandLine(CliEnvironment env, String... args) {
    CommandLine cli = new CommandLine(new Main(env));
    Map<String, Class<?>> branches = subcommands(args);
    for (Class<?> branch : branches.values()) {
      cli.addSubcommand(branch);
    }
    CommandLine restore = cli.getSubcommands().get("restore");
    List<String> options = optionsBeforeEnd(args);
    boolean help = options.contains("--help") || options.contains("-h");
    if (restore != null
        && (branches.size() > 1
            || help
            || RESTORE_CLUSTER_COMMANDS.containsKey(secondWord(args)))) {
      for (Class<?> command : RESTORE_CLUSTER_COMMANDS.values()) {
        restore.addSubcommand(command);
      }
    }
    cli.setOut(env.out());
    cli.setErr(env.err());
    cli.setCaseInsensitiveEnumValuesAllowed(true);
    withHelp(cli);
    return cli;
  }

  /** Every command and subcommand answers {@code --help} (and {@code -h}). */
  private static void withHelp(CommandLine command) {
    if (command.getCommandSpec().optionsMap().get("--help") == null) {
      command.getCommandSpec().mixinStandardHelpOptions(true);
    }
    for (CommandLine subcommand : command.getSubcommands().values()) {
      withHelp(subcommand);
    }
  }

  @Override
  public Integer call() {
    spec.commandLine().usage(env.err()); // as GroupCommand: the tree is built once, in run
    return ExitCode.USAGE;
  }

  /**
   * What a run does around its command: waits for its {@link Preparation}, then runs it; turns a
   * failure into one line and an exit code; answers a usage error with one line and where help is.
   *
   * <p>A class, not three lambdas, and the loops in {@link #commandLine} are loops, not method
   * references, for start-up: a lambda typed by a picocli interface makes the JDK 17 archive dump
   * link picocli's classes (Java 5's class-file format), and the dump then leaves them out of the
   * class-data-sharing archive, {@code CommandLine} among them ({@code ShortClassPathIT}).
   */
  private record Handlers(Preparation preparation, CliEnvironment env, boolean debug)
      implements CommandLine.IExecutionStrategy,
          CommandLine.IExecutionExceptionHandler,
          CommandLine.IParameterExceptionHandler {
    @Override
    public int execute(CommandLine.ParseResult parsed) {
      preparation.join();
      return new CommandLine.RunLast().execute(parsed);
    }

    @Override
    public int handleExecutionException(
        Exception e, CommandLine line, CommandLine.ParseResult parsed) {
      Failures.Outcome outcome = Failures.classify(e);
      env.out().flush();
      env.err().println("stele: " + outcome.message());
      if (debug) {
        e.printStackTrace(env.err());
      }
      return outcome.exitCode();
    }

    @Override
    public int handleParseException(CommandLine.ParameterException e, String[] args) {
      env.err()
          .println(
              "stele: "
                  + e.getMessage()
                  + " (see '"
                  + e.getCommandLine().getCommandSpec().qualifiedName()
                  + " --help')");
      return ExitCode.USAGE;
    }
  }

  private static Map<String, Class<?>> subcommands(String[] args) {
    int at = commandAt(args);
    if (at >= 0) {
      Class<?> named = COMMANDS.get(args[at]);
      return named == null ? COMMANDS : Map.of(args[at], named);
    }
    List<String> options = optionsBeforeEnd(args);
    boolean version = options.contains("-V") || options.contains("--version");
    boolean help = options.contains("-h") || options.contains("--help");
    boolean file = options.stream().anyMatch(a -> a.startsWith("@"));
    return version && !help && !file && options.size() == args.length ? Map.of() : COMMANDS;
  }

  /**
   * Where in {@code args} the command's name is: the first word that is not an option ({@code
   * --log-format}'s value skipped), as the launcher reads it; -1 if none comes before an {@code
   * @file} or {@code --}.
   */
  static int commandAt(String[] args) {
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--log-format")) {
        i++;
      } else if (a.startsWith("@") || a.equals("--")) {
        return -1;
      } else if (!a.startsWith("-")) {
        return i;
      }
    }
    return -1;
  }

  /** Every subcommand by name, in the order {@code stele --help} lists them. */
  static Map<String, Class<?>> commands() {
    return COMMANDS;
  }

  /** {@code restore}'s cluster subcommands by name. */
  static Map<String, Class<?>> restoreClusterCommands() {
    return RESTORE_CLUSTER_COMMANDS;
  }

  /** The word right after the command's name, or null. */
  private static @Nullable String secondWord(String[] args) {
    int at = commandAt(args);
    return at >= 0 && at + 1 < args.length ? args[at + 1] : null;
  }

  @SafeVarargs
  private static Map<String, Class<?>> ordered(Map.Entry<String, Class<?>>... entries) {
    Map<String, Class<?>> map = new LinkedHashMap<>();
    for (Map.Entry<String, Class<?>> e : entries) {
      map.put(e.getKey(), e.getValue());
    }
    return Collections.unmodifiableMap(map);
  }

  private static List<String> optionsBeforeEnd(String[] args) {
    int end = Arrays.asList(args).indexOf("--");
    return Arrays.asList(args).subList(0, end < 0 ? args.length : end);
  }

  /** The value of {@code --log-format}, as picocli will read it, or null. */
  private static String logFormat(List<String> options) {
    for (int i = 0; i < options.size(); i++) {
      String o = options.get(i);
      if (o.startsWith("--log-format=")) {
        return o.substring("--log-format=".length());
      }
      if (o.equals("--log-format") && i + 1 < options.size()) {
        return options.get(i + 1);
      }
    }
    return null;
  }

  /**
   * The version from the jar's manifest, or "(development build)" when run from classes, and the
   * commit the build recorded ({@code dev/stele/cli/commit}, empty outside a git checkout).
   */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() throws IOException {
      String v = Main.class.getPackage().getImplementationVersion();
      String commit = "";
      try (InputStream in = Main.class.getResourceAsStream("commit")) {
        if (in != null) {
          commit = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        }
      }
      return new String[] {
        "stele "
            + (v == null ? "(development build)" : v)
            + (commit.isEmpty() ? "" : " (commit " + commit + ")")
      };
    }
  }
}
