package dev.stele.cli;

import java.io.IOException;
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
 *       with the same engine), and {@code backup get} against a cluster at a closed loopback port,
 *       which loads the Kubernetes client's classes. For the cluster commands, the operator, the
 *       node agent, the server and help; the long-lived ones load the S3 client from its jar once,
 *       where they use it.
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
          clusterCommand();
          yield code;
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

  /** {@code backup get} against a cluster at a closed port: it fails, having built its client. */
  private void clusterCommand() throws IOException {
    Path kubeconfig = Files.createTempFile("stele-training-", ".kubeconfig");
    try {
      Files.writeString(
          kubeconfig,
          """
          apiVersion: v1
          kind: Config
          clusters: [{name: c, cluster: {server: 'https://127.0.0.1:1'}}]
          users: [{name: u, user: {token: training}}]
          contexts: [{name: c, context: {cluster: c, user: u}}]
          current-context: c
          """);
      Main.run(env(), "backup", "get", "--kubeconfig", kubeconfig.toString()); // port 1: fails
    } finally {
      Files.deleteIfExists(kubeconfig);
    }
  }

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
