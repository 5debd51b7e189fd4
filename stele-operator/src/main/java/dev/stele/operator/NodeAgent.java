package dev.stele.operator;

import com.sun.net.httpserver.HttpServer;
import dev.stele.operator.kube.HealthEndpoints;
import dev.stele.operator.kube.Operators;
import dev.stele.operator.kube.Settings;
import dev.stele.operator.nodeagent.NodeSettings;
import dev.stele.operator.nodeagent.PodVolumeBackupReconciler;
import dev.stele.operator.nodeagent.PodVolumeRestoreReconciler;
import dev.stele.operator.nodeagent.VolumeFiles;
import dev.stele.operator.store.OpenRepositories;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import org.jspecify.annotations.Nullable;

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
  /** Where the kubelet keeps its pods' directories, unless told otherwise. */
  public static final Path DEFAULT_KUBELET_ROOT = NodeSettings.DEFAULT_KUBELET_ROOT;

  private final Operator operator;
  private final @Nullable HttpServer health;
  private final OpenRepositories repositories;

  private NodeAgent(Operator operator, @Nullable HttpServer health, OpenRepositories repositories) {
    this.operator = operator;
    this.health = health;
    this.repositories = repositories;
  }

  /**
   * Starts the agent, without probes.
   *
   * @param namespace the only namespace to watch (WATCH_NAMESPACE); null or blank: all
   */
  @SuppressWarnings("exports") // the tests' entry: they pass settings of their own
  public static NodeAgent start(
      KubernetesClient client,
      Settings settings,
      NodeSettings node,
      @Nullable String namespace,
      boolean serverSideApply) {
    try {
      return start(client, settings, node, namespace, serverSideApply, -1);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // no server: nothing to fail
    }
  }

  /**
   * Starts the agent. Every agent reconciles (one per node, each its own node's requests): there is
   * no leader election.
   *
   * @param healthPort the port of {@code /healthz} and {@code /readyz} ({@link HealthEndpoints}),
   *     or a negative number for none
   */
  @SuppressWarnings("exports") // the tests' entry: they pass settings of their own
  public static NodeAgent start(
      KubernetesClient client,
      Settings settings,
      NodeSettings node,
      @Nullable String namespace,
      boolean serverSideApply,
      int healthPort)
      throws IOException {
    Operator operator =
        Operators.create(
            client,
            serverSideApply,
            namespace,
            List.of(
                new PodVolumeBackupReconciler(client, settings, node),
                new PodVolumeRestoreReconciler(client, settings, node)),
            null);
    HttpServer health = null;
    if (healthPort >= 0) {
      health = HttpServer.create(new InetSocketAddress(healthPort), 0);
      HealthEndpoints.add(health, operator);
      health.start();
    }
    try {
      Operators.start(operator, client);
    } catch (IOException | RuntimeException e) {
      if (health != null) {
        health.stop(0); // its thread would keep the process alive
      }
      throw e;
    }
    return new NodeAgent(operator, health, settings.repositories());
  }

  /**
   * Starts the agent of node {@code node} as the command line runs it: default settings, pods'
   * directories under {@code kubeletRoot}, server-side apply.
   */
  public static NodeAgent start(
      KubernetesClient client,
      @Nullable String namespace,
      String node,
      Path kubeletRoot,
      int healthPort)
      throws IOException {
    return start(
        client,
        Settings.defaults(),
        new NodeSettings(node, kubeletRoot),
        namespace,
        true,
        healthPort);
  }

  /**
   * The marker the agent writes into a volume once it has restored it for the restore {@code
   * restoreUid}: what the restored pod's init container waits for.
   */
  public static Path restoredMarker(Path volume, String restoreUid) {
    return VolumeFiles.marker(volume, restoreUid);
  }

  /** The port of the probes, or -1. */
  public int healthPort() {
    return health == null ? -1 : health.getAddress().getPort();
  }

  @Override
  public void close() {
    operator.stop();
    repositories.close();
    if (health != null) {
      health.stop(0);
    }
  }
}
