package dev.stele.cli.cluster;

import dev.stele.k8s.api.RunPhase;
import dev.stele.k8s.testing.ApiServer;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;

/**
 * Not a test: the API server {@code bench/run.sh} times {@code stele backup get} against, since the
 * distribution carries no test support. {@code BackupGetServer DIR COUNT} starts the test API
 * server ({@link ApiServer}), creates COUNT completed Backups, writes {@code DIR/kubeconfig},
 * prints {@code ready FILE}, and serves until its standard input closes.
 */
final class BackupGetServer {
  private BackupGetServer() {}

  public static void main(String[] args) throws IOException {
    Path dir = Path.of(args[0]);
    int count = Integer.parseInt(args[1]);
    try (ApiServer server = new ApiServer();
        KubernetesClient client = server.client()) {
      ClusterFixture k8s = new ClusterFixture(client, dir);
      for (int i = 1; i <= count; i++) {
        k8s.backup(
            String.format("backup-%04d", i), null, ClusterFixture.status(RunPhase.COMPLETED));
      }
      System.out.println("ready " + k8s.kubeconfig);
      System.out.flush();
      System.in.transferTo(OutputStream.nullOutputStream());
    }
  }
}
