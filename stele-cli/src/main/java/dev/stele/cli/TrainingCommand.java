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
 * archives from. Without {@code --remote} it builds the branch of every command of {@link
 * Main#LOCAL_COMMANDS} (a command run builds only its own, see {@link Main#commandLine}), runs the
 * quick demo (local repository, backup, list, restore) and checks that repository: the archive of
 * those commands on a local repository, which the launcher runs on the short class path.
 *
 * <p>With {@code --remote} it builds the whole command tree, runs the demo, then the commands of an
 * S3 repository against an imitation of a lock bucket on loopback ({@link LockBucketImitation}),
 * which loads the AWS SDK's whole request and response path, and runs {@code backup get} against a
 * cluster at a closed loopback port, which loads the Kubernetes client's classes: the archive of
 * everything else, on the whole class path. Why two: the {@code stele} launcher, which picks one.
 */
@Command(name = "class-data-training", hidden = true)
final class TrainingCommand extends SteleCommand {
  @Option(names = "--remote", description = "Also load the S3 and Kubernetes clients' classes.")
  boolean remote;

  @Override
  public Integer call() throws Exception {
    if (remote) {
      Main.commandLine(env());
    } else {
      for (String command : Main.LOCAL_COMMANDS) {
        Main.commandLine(env(), command);
      }
    }
    Path dir = Files.createTempDirectory("stele-training-");
    int code;
    try {
      code = Main.run(env(), "demo", "--quick", "--dir", dir.toString());
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
    } finally {
      DemoCommand.deleteTree(dir);
    }
    if (!remote) {
      return code;
    }
    Path s3 = Files.createTempDirectory("stele-training-s3-");
    try {
      code |= s3Commands(env(), s3);
    } finally {
      DemoCommand.deleteTree(s3);
    }
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
      // fails: nothing listens on port 1
      Main.run(env(), "backup", "get", "--kubeconfig", kubeconfig.toString());
    } finally {
      Files.deleteIfExists(kubeconfig);
    }
    return code;
  }

  /**
   * The commands a user runs on an S3 repository, against an imitation of a lock bucket on
   * loopback: init with retention, a backup, the list, both checks, a restore and a listing, each
   * through the whole SDK. Returns 0 if every one succeeded.
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
