package dev.stele.cli.cluster;

import dev.stele.cli.CliException;
import dev.stele.cli.ExitCode;
import dev.stele.cli.StelCommand;
import dev.stele.operator.Settings;
import dev.stele.operator.volume.NodeAgent;
import dev.stele.operator.volume.NodeSettings;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code stele node-agent}: runs the node agent of one node until killed (SIGTERM, SIGINT), backing
 * up and restoring the volumes of that node's pods. Configured like {@code stele operator} (service
 * account or KUBECONFIG, WATCH_NAMESPACE), plus the node's name and the kubelet's root.
 */
@Command(
    name = "node-agent",
    description =
        "Run the node agent (PodVolumeBackup, PodVolumeRestore) of one node until stopped: it"
            + " reads and writes the node's pod volumes under the kubelet's directory. Uses the"
            + " in-cluster service account or the kubeconfig (KUBECONFIG); WATCH_NAMESPACE limits"
            + " it to one namespace.")
public final class NodeAgentCommand extends StelCommand {
  @Option(
      names = "--node",
      paramLabel = "NAME",
      description = "The node whose pod volumes this agent serves. Default: $NODE_NAME.")
  String node;

  @Option(
      names = "--kubelet-root",
      paramLabel = "DIR",
      defaultValue = "/var/lib/kubelet",
      description =
          "The kubelet's root directory; pod volumes are under DIR/pods. Default: ${DEFAULT-VALUE}.")
  Path kubeletRoot;

  @Override
  public Integer call() throws Exception {
    String name = node != null ? node : env().variable("NODE_NAME");
    if (name == null || name.isBlank()) {
      throw CliException.usage("which node? pass --node NAME or set NODE_NAME");
    }
    if (!Files.isDirectory(kubeletRoot.resolve("pods"))) {
      warn(kubeletRoot.resolve("pods") + " does not exist: is the kubelet's directory mounted?");
    }
    CountDownLatch stopped = new CountDownLatch(1);
    CountDownLatch closed = new CountDownLatch(1);
    // As for the operator: on SIGTERM the JVM runs this hook and exits when it returns, so it waits
    // (a while) until the agent has stopped. A backup or restore cut short is resumed or redone by
    // the next agent on this node.
    Thread hook =
        new Thread(
            () -> {
              stopped.countDown();
              try {
                closed.await(20, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "stele-node-agent-shutdown");
    try (KubernetesClient client = KubeClients.client(env())) {
      String namespace = env().variable("WATCH_NAMESPACE");
      NodeSettings settings = new NodeSettings(name, kubeletRoot);
      try (NodeAgent agent =
          NodeAgent.start(client, Settings.defaults(), settings, namespace, true)) {
        Runtime.getRuntime().addShutdownHook(hook);
        out()
            .println(
                "stele node-agent running for node "
                    + name
                    + " against "
                    + client.getMasterUrl()
                    + (namespace == null || namespace.isBlank()
                        ? " (all namespaces)"
                        : " (namespace " + namespace + ")")
                    + "; volumes under "
                    + settings.kubeletRoot().resolve("pods"));
        out().flush();
        stopped.await();
      }
      out().println("stele node-agent stopped");
      out().flush();
    } finally {
      closed.countDown();
    }
    return ExitCode.OK;
  }
}
