package dev.stele.cli;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code stele class-data-training}, hidden: the run the build records its class-data-sharing
 * archives from. It builds the whole command tree once, which a command run builds only the branch
 * of (see {@link Main#commandLine}), so that every command's classes are in the archive, and runs
 * the quick demo (local repository, backup, list, restore). That is the archive of commands on a
 * local repository.
 *
 * <p>With {@code --remote} it then opens an S3 repository at a closed loopback port, which loads
 * the AWS SDK's client, signing and HTTP classes without sending a request anywhere, and runs
 * {@code backup get} against a cluster at a closed loopback port, which loads the Kubernetes
 * client's classes: the archive of S3, server and cluster commands. Why two: the {@code stele}
 * launcher, which picks one.
 */
@Command(name = "class-data-training", hidden = true)
final class TrainingCommand extends SteleCommand {
  @Option(names = "--remote", description = "Also load the S3 and Kubernetes clients' classes.")
  boolean remote;

  @Override
  public Integer call() throws Exception {
    Main.commandLine(env());
    int code = Main.run(env(), "demo", "--quick");
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
