package dev.stele.cli;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Command;

/**
 * {@code stele class-data-training}, hidden: the run the build records its class-data-sharing
 * archive from. It runs the quick demo (local repository, backup, list, restore) and then opens an
 * S3 repository at a closed loopback port, which loads the AWS SDK's client, signing and HTTP
 * classes without sending a request anywhere, so S3 commands start from the archive too. Last,
 * {@code backup get} against a cluster at a closed loopback port loads the Kubernetes client's
 * classes for the cluster commands. It also builds the whole command tree once, which a command run
 * builds only the branch of (see {@link Main#commandLine}), so that every command's classes are in
 * the archive.
 */
@Command(name = "class-data-training", hidden = true)
final class TrainingCommand extends SteleCommand {
  @Override
  public Integer call() throws Exception {
    Main.commandLine(env());
    int code = Main.run(env(), "demo", "--quick");
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
