package dev.stele.operator.volume;

import dev.stele.operator.Operators;
import dev.stele.operator.Settings;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import java.io.Closeable;
import java.util.List;

/**
 * The node agent process ({@code stele node-agent}, a DaemonSet): the PodVolumeBackup and
 * PodVolumeRestore reconcilers of one node on java-operator-sdk, watching one namespace (the
 * operator's, where the requests are created) or all.
 *
 * <p>Neither reconciler patches its resource through the framework (they write the status
 * subresource themselves, and add no finalizer), so the agent runs the same against the mock API
 * server and a real one; {@code serverSideApply} only sets the framework's own default. Stopping
 * the agent leaves the client open: whoever created it closes it.
 */
public final class NodeAgent implements Closeable {
  /** The source of the agent's Events. */
  public static final String COMPONENT = "stele-node-agent";

  private final Operator operator;

  private NodeAgent(Operator operator) {
    this.operator = operator;
  }

  /**
   * Starts the agent.
   *
   * @param namespace the only namespace to watch (WATCH_NAMESPACE); null or blank: all
   */
  public static NodeAgent start(
      KubernetesClient client,
      Settings settings,
      NodeSettings node,
      String namespace,
      boolean serverSideApply) {
    Operator operator =
        Operators.create(
            client,
            serverSideApply,
            namespace,
            List.of(
                new PodVolumeBackupReconciler(client, settings, node),
                new PodVolumeRestoreReconciler(client, settings, node)));
    operator.start();
    return new NodeAgent(operator);
  }

  @Override
  public void close() {
    operator.stop();
  }
}
