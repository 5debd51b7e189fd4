package dev.stele.cli.cluster;

import dev.stele.cli.CliException;
import dev.stele.operator.NodeAgent;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
            + " reads and writes the node's pod volumes under the kubelet's directory. Uses"
            + " KUBECONFIG, else ~/.kube/config, else the in-cluster service account;"
            + " WATCH_NAMESPACE limits it to one namespace.")
public final class NodeAgentCommand extends InClusterCommand<NodeAgent> {
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

  @Option(
      names = "--health-port",
      paramLabel = "PORT",
      defaultValue = "8081",
      description =
          "Serve the probes /healthz and /readyz at PORT (-1: none). Default: ${DEFAULT-VALUE}.")
  int healthPort;

  private String nodeName;

  public NodeAgentCommand() {
    super("node-agent");
  }

  @Override
  void check() {
    nodeName = node != null ? node : env().variable("NODE_NAME");
    if (nodeName == null || nodeName.isBlank()) {
      throw CliException.usage("which node? pass --node NAME or set NODE_NAME");
    }
    if (!Files.isDirectory(kubeletRoot.resolve("pods"))) {
      warn(kubeletRoot.resolve("pods") + " does not exist: is the kubelet's directory mounted?");
    }
  }

  // A backup or restore cut short is resumed or redone by the next agent on this node.
  @Override
  NodeAgent start(KubernetesClient client, String namespace) throws IOException {
    return NodeAgent.start(client, namespace, nodeName, kubeletRoot, healthPort);
  }

  @Override
  String running(NodeAgent agent, String where) {
    return "for node "
        + nodeName
        + " "
        + where
        + "; volumes under "
        + kubeletRoot.resolve("pods")
        + "; probes on port "
        + agent.healthPort();
  }
}
