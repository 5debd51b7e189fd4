package dev.stele.cli.cluster;

import dev.stele.cli.CliEnvironment;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.File;

/**
 * The Kubernetes client of the commands that run in a cluster ({@code operator}, {@code
 * node-agent}).
 */
final class KubeClients {
  private KubeClients() {}

  /**
   * fabric8's usual configuration (in-cluster, or the process's KUBECONFIG), unless the command's
   * environment names a different KUBECONFIG (tests and the demo inject one).
   */
  static KubernetesClient client(CliEnvironment env) {
    File kubeconfig = ClusterOptions.injectedKubeconfig(env);
    return kubeconfig != null
        ? new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(kubeconfig)).build()
        : new KubernetesClientBuilder().build();
  }
}
