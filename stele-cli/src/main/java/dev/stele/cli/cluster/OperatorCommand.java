package dev.stele.cli.cluster;

import dev.stele.operator.SteleOperator;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
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
        "Run the Kubernetes operator until stopped: it reconciles BackupStorageLocations,"
            + " BackupStorageLocationRepositories (with their maintenance and the sync of"
            + " Backups found in them), Backups (and their expiry), Schedules,"
            + " DeleteBackupRequests and Restores, and creates the PodVolumeBackups and"
            + " PodVolumeRestores the node agent serves. Uses KUBECONFIG, else ~/.kube/config,"
            + " else the in-cluster service account; WATCH_NAMESPACE limits it to one namespace.")
public final class OperatorCommand extends InClusterCommand<SteleOperator> {
  @Option(
      names = "--metrics-port",
      paramLabel = "PORT",
      defaultValue = "8080",
      description =
          "Serve Prometheus metrics on /metrics, and the probes /healthz and /readyz, at PORT"
              + " (-1: none). Default: ${DEFAULT-VALUE}.")
  int metricsPort;

  @Option(
      names = "--leader-election",
      negatable = true,
      defaultValue = "true",
      fallbackValue = "true",
      description =
          "Reconcile only while holding the Lease stele-operator, so that replicas are safe"
              + " (default); --no-leader-election for a single process without a Lease.")
  boolean leaderElection;

  @Option(
      names = "--image",
      paramLabel = "IMAGE",
      description =
          "The image restore-wait init containers run. Default: this operator's own, read from"
              + " its pod (POD_NAME, POD_NAMESPACE), else "
              + SteleOperator.DEFAULT_IMAGE
              + ".")
  String image;

  public OperatorCommand() {
    super("operator");
  }

  @Override
  SteleOperator start(KubernetesClient client, String namespace) throws IOException {
    return SteleOperator.start(
        client,
        namespace,
        image,
        env().variable("POD_NAMESPACE"),
        env().variable("POD_NAME"),
        metricsPort,
        leaderElection);
  }

  @Override
  String running(SteleOperator operator, String where) {
    return where
        + "; metrics and probes on port "
        + operator.metricsPort()
        + (leaderElection ? "; reconciling while it holds the Lease " + SteleOperator.LEASE : "");
  }
}
