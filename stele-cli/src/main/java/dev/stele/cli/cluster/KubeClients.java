package dev.stele.cli.cluster;

import dev.stele.cli.CliEnvironment;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.File;
import java.util.Objects;

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
    String kubeconfig = env.variable("KUBECONFIG");
    if (kubeconfig != null
        && !kubeconfig.isBlank()
        && !Objects.equals(kubeconfig, System.getenv("KUBECONFIG"))) {
      String first = kubeconfig.split(File.pathSeparator)[0];
      return new KubernetesClientBuilder()
          .withConfig(Config.fromKubeconfig(new File(first)))
          .build();
    }
    return new KubernetesClientBuilder().build();
  }
}
