package dev.stele.cli;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code stele class-data-training}, hidden: the runs the build records its class-data-sharing
 * archives from, one per archive the {@code stele} launcher picks from. The JVM relocates an
 * archive whole at start, so each class in it costs every command that maps it resident memory and
 * time: each archive holds what its commands load, no more.
 *
 * <ul>
 *   <li>{@code --archive local}: the branch of every command of {@link Main#LOCAL_COMMANDS} (a run
 *       builds only its own, see {@link Main#commandLine}), the quick demo (local repository,
 *       backup, list, restore), a check of that repository and its snapshots listed as JSON (the
 *       Jackson mapper every {@code --json} prints through). For those commands on a local
 *       repository, on the short class path.
 *   <li>{@code --archive s3}: the same branches, then those commands on an S3 repository, against
 *       an imitation of a lock bucket on loopback ({@link LockBucketImitation}), which loads the S3
 *       client's whole request and response path. For a repository named by a URL.
 *   <li>{@code --archive cluster}: the whole command tree (help), the demo (the node agent backs up
 *       with the same engine), and {@code backup get} against an imitation of an API server and
 *       against a closed port, which loads the Kubernetes client's classes. For the cluster
 *       commands, the operator, the node agent, the server and help; the long-lived ones load the
 *       S3 client from its jar once, where they use it.
 * </ul>
 */
@Command(name = "class-data-training", hidden = true)
final class TrainingCommand extends SteleCommand {
  /** Which archive a run trains. */
  enum Archive {
    LOCAL,
    S3,
    CLUSTER
  }

  @Option(
      names = "--archive",
      description = "The archive to train: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).",
      defaultValue = "local")
  Archive archive;

  @Override
  public Integer call() throws Exception {
    if (archive == Archive.CLUSTER) {
      Main.commandLine(env());
    } else {
      for (String command : Main.LOCAL_COMMANDS) {
        Main.commandLine(env(), command);
      }
    }
    Path dir = Files.createTempDirectory("stele-training-");
    try {
      return switch (archive) {
        case LOCAL -> demo(dir);
        case S3 -> s3Commands(env(), dir);
        case CLUSTER -> {
          int code = demo(dir);
          yield code | clusterCommands(env(), dir);
        }
      };
    } finally {
      DemoCommand.deleteTree(dir);
    }
  }

  /** The quick demo in {@code dir}, then a check of its repository and two listings. */
  private int demo(Path dir) {
    int code = Main.run(env(), "demo", "--quick", "--dir", dir.toString());
    CliEnvironment demo =
        env()
            .withVariables(
                Map.of(
                    Passwords.PASSWORD,
                    DemoCommand.PASSWORD,
                    RepositoryOptions.REPO,
                    dir.resolve("repository").toString()));
    Main.run(demo, "verify", "--read-data");
    Main.run(demo, "ls", "latest");
    Main.run(demo, "snapshot", "list", "--json"); // the mapper, for every command's --json
    return code;
  }

  /**
   * {@code backup get} against an imitation of an API server on loopback that lists one Backup,
   * which takes the Kubernetes client through its whole request and response path (without one, the
   * JDK's HTTP client came from the module image at each start, some 180 classes), then against a
   * closed port, its error path. Returns the first one's exit code.
   */
  static int clusterCommands(CliEnvironment env, Path dir) throws IOException {
    HttpServer api =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    api.createContext(
        "/",
        exchange -> {
          byte[] body = BACKUP_LIST.getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().set("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    api.start();
    try {
      int code = backupGet(env, dir, "http://127.0.0.1:" + api.getAddress().getPort());
      backupGet(env, dir, "https://127.0.0.1:1"); // fails: nothing listens there
      return code;
    } finally {
      api.stop(0);
    }
  }

  private static int backupGet(CliEnvironment env, Path dir, String server) throws IOException {
    Path kubeconfig = dir.resolve("kubeconfig");
    Files.writeString(
        kubeconfig,
        """
        apiVersion: v1
        kind: Config
        clusters: [{name: c, cluster: {server: '%s'}}]
        users: [{name: u, user: {token: training}}]
        contexts: [{name: c, context: {cluster: c, user: u}}]
        current-context: c
        """
            .formatted(server));
    return Main.run(env, "backup", "get", "--kubeconfig", kubeconfig.toString());
  }

  private static final String BACKUP_LIST =
      """
      {"apiVersion": "stele.dev/v1alpha1", "kind": "BackupList", "metadata": {},
       "items": [{"apiVersion": "stele.dev/v1alpha1", "kind": "Backup",
         "metadata": {"name": "training", "namespace": "stele",
           "creationTimestamp": "2026-01-01T00:00:00Z"},
         "spec": {}, "status": {"phase": "Completed"}}]}
      """;

  /**
   * The commands a user runs on an S3 repository, against an imitation of a lock bucket on
   * loopback: init with retention, a backup, the list (also as JSON), both checks, a restore and a
   * listing, each through the whole S3 client. Returns 0 if every one succeeded.
   */
  static int s3Commands(CliEnvironment env, Path dir) throws IOException {
    Path source = Files.createDirectories(dir.resolve("source"));
    SampleTree.generate(source, 1 << 20);
    try (LockBucketImitation bucket = new LockBucketImitation("stele-training")) {
      CliEnvironment s3 =
          env.withVariables(
              Map.of(
                  Passwords.PASSWORD,
                  DemoCommand.PASSWORD,
                  "AWS_ACCESS_KEY_ID",
                  "training",
                  "AWS_SECRET_ACCESS_KEY",
                  "training",
                  "XDG_CACHE_HOME",
                  dir.resolve("cache").toString()));
      String[] repo = {
        "--repo",
        "s3://stele-training/repository",
        "--endpoint",
        bucket.endpoint().toString(),
        "--path-style",
        "--region",
        "us-east-1"
      };
      String[][] commands = {
        {"repo", "init", "--lock-mode", "governance", "--min-retention", "1d"},
        {"snapshot", "create", source.toString()},
        {"snapshot", "create", source.toString()},
        {"snapshot", "list"},
        {"snapshot", "list", "--json"},
        {"verify"},
        {"verify", "--read-data"},
        {"restore", "latest", "--target", dir.resolve("restored").toString()},
        {"ls", "latest"}
      };
      int code = 0;
      for (String[] command : commands) {
        String[] args = Arrays.copyOf(command, command.length + repo.length);
        System.arraycopy(repo, 0, args, command.length, repo.length);
        code |= Main.run(s3, args);
      }
      return code;
    }
  }
}
