package dev.stele.cli.cluster;

import dev.stele.cli.ExitCode;
import dev.stele.cli.StelCommand;
import dev.stele.operator.Settings;
import dev.stele.operator.SteleOperator;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code stele operator}: runs the Kubernetes operator until killed (SIGTERM, SIGINT), with the
 * in-cluster service account or, outside a cluster, the current kubeconfig context ({@code
 * KUBECONFIG}). {@code WATCH_NAMESPACE} keeps it in one namespace.
 */
@Command(
    name = "operator",
    description =
        "Run the Kubernetes operator (BackupStorageLocation, BackupStorageLocationRepository)"
            + " until stopped; uses the in-cluster service account or the kubeconfig"
            + " (KUBECONFIG); WATCH_NAMESPACE limits it to one namespace.")
public final class OperatorCommand extends StelCommand {
  @Option(
      names = "--metrics-port",
      paramLabel = "PORT",
      defaultValue = "8080",
      description =
          "Serve Prometheus metrics on /metrics at PORT (-1: none). Default: ${DEFAULT-VALUE}.")
  int metricsPort;

  @Override
  public Integer call() throws Exception {
    CountDownLatch stopped = new CountDownLatch(1);
    CountDownLatch closed = new CountDownLatch(1);
    // On SIGTERM the JVM runs this hook and exits when it returns: it waits (a while) until the
    // operator has stopped its informers and executors.
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
            "stele-operator-shutdown");
    try (KubernetesClient client = KubeClients.client(env())) {
      String namespace = env().variable("WATCH_NAMESPACE");
      try (SteleOperator operator =
          SteleOperator.start(client, Settings.defaults(), metricsPort, true, namespace)) {
        Runtime.getRuntime().addShutdownHook(hook);
        out()
            .println(
                "stele operator running against "
                    + client.getMasterUrl()
                    + (namespace == null || namespace.isBlank()
                        ? " (all namespaces)"
                        : " (namespace " + namespace + ")")
                    + "; metrics on port "
                    + operator.metricsPort());
        out().flush();
        stopped.await();
      }
      out().println("stele operator stopped");
      out().flush();
    } finally {
      closed.countDown();
    }
    return ExitCode.OK;
  }
}
