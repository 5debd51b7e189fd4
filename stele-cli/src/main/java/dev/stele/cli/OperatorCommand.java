package dev.stele.cli;

import dev.stele.operator.Settings;
import dev.stele.operator.SteleOperator;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code stele operator}: runs the Kubernetes operator until killed, with the in-cluster service
 * account or, outside a cluster, the current kubeconfig context.
 */
@Command(
    name = "operator",
    description =
        "Run the Kubernetes operator (BackupStorageLocation, BackupStorageLocationRepository)"
            + " until stopped; uses the in-cluster service account or the kubeconfig.")
final class OperatorCommand extends StelCommand {
  @Option(
      names = "--metrics-port",
      paramLabel = "PORT",
      defaultValue = "8080",
      description =
          "Serve Prometheus metrics on /metrics at PORT (-1: none). Default: ${DEFAULT-VALUE}.")
  int metricsPort;

  @Override
  public Integer call() throws Exception {
    KubernetesClient client = new KubernetesClientBuilder().build();
    CountDownLatch stopped = new CountDownLatch(1);
    try (SteleOperator operator =
        SteleOperator.start(client, Settings.defaults(), metricsPort, true)) {
      Runtime.getRuntime()
          .addShutdownHook(new Thread(stopped::countDown, "stele-operator-shutdown"));
      out().println("stele operator running; metrics on port " + operator.metricsPort());
      out().flush();
      stopped.await();
    } finally {
      client.close();
    }
    return ExitCode.OK;
  }
}
