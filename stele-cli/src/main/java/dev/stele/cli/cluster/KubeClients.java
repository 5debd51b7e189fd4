package dev.stele.cli.cluster;

import dev.stele.cli.CliEnvironment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

/**
 * The Kubernetes client of the commands that run in a cluster ({@code operator}, {@code
 * node-agent}).
 */
final class KubeClients {
  private KubeClients() {}

  /** The cluster {@link KubeConfigs} finds; in a pod, the in-cluster service account. */
  static KubeConfigs.Found find(CliEnvironment env) {
    return KubeConfigs.find(env, null, null);
  }

  static KubernetesClient client(KubeConfigs.Found found) {
    return new KubernetesClientBuilder().withConfig(found.config()).build();
  }
}
