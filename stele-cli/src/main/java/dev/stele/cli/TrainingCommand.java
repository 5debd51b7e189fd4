package dev.stele.cli;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * <p>With {@code --remote} it builds the whole command tree, runs the demo, then opens an S3
 * repository at a closed loopback port, which loads the AWS SDK's client, signing and HTTP classes
 * without sending a request anywhere, and runs {@code backup get} against a cluster at a closed
 * loopback port, which loads the Kubernetes client's classes: the archive of everything else, on
 * the whole class path. Why two: the {@code stele} launcher, which picks one.
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
    try {
      new S3StoreProvider()
          .open(
              URI.create("s3://stele-training/repository"),
              Map.of(
                  "endpoint", "http://127.0.0.1:1",
                  "region", "us-east-1",
                  "path-style", "true",
                  "access-key", "training",
                  "secret-key", "training"),
              false)
          .close();
    } catch (Exception expected) {
      // nothing listens on port 1: the point was to load the classes
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
}
