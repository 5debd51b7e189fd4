package dev.stele.operator;

import com.sun.net.httpserver.HttpServer;
import dev.stele.operator.deletion.BackupExpiryReconciler;
import dev.stele.operator.deletion.DeleteBackupRequestReconciler;
import dev.stele.operator.restore.RestoreReconciler;
import dev.stele.operator.schedule.ScheduleReconciler;
import dev.stele.operator.sync.BackupSyncReconciler;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The operator process: the location, repository, backup and restore reconcilers, and those of a
 * backup's life after it is written (schedule, expiry, deletion, sync), on java-operator-sdk,
 * watching the namespace they run in (or all namespaces the client may see), and Prometheus metrics
 * on {@code /metrics}.
 *
 * <p>{@code serverSideApply} is true in production; tests against fabric8's mock server, which
 * answers 415 to apply patches, turn it off.
 */
public final class SteleOperator implements Closeable {
  private final Operator operator;
  private final HttpServer metricsServer;

  private SteleOperator(Operator operator, HttpServer metricsServer) {
    this.operator = operator;
    this.metricsServer = metricsServer;
  }

  /**
   * Starts the operator.
   *
   * @param metricsPort the port of {@code /metrics}, or a negative number for none
   */
  public static SteleOperator start(
      KubernetesClient client, Settings settings, int metricsPort, boolean serverSideApply)
      throws IOException {
    return start(client, settings, metricsPort, serverSideApply, System.getenv("WATCH_NAMESPACE"));
  }

  /**
   * Starts the operator.
   *
   * @param metricsPort the port of {@code /metrics}, or a negative number for none
   * @param namespace the only namespace to watch (WATCH_NAMESPACE); null or blank: all
   */
  public static SteleOperator start(
      KubernetesClient client,
      Settings settings,
      int metricsPort,
      boolean serverSideApply,
      String namespace)
      throws IOException {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    OperatorMetrics metrics = new OperatorMetrics(registry);
    // WATCH_NAMESPACE (set by deploy/operator.yaml) keeps the operator inside the namespace its
    // Role covers; unset, it watches every namespace.
    Operator operator =
        Operators.create(
            client,
            serverSideApply,
            namespace,
            List.of(
                new LocationReconciler(client, settings, metrics),
                new RepositoryReconciler(client, settings, metrics),
                new BackupReconciler(client, settings),
                new BackupExpiryReconciler(client, settings),
                new DeleteBackupRequestReconciler(client, settings),
                new ScheduleReconciler(client, settings),
                new BackupSyncReconciler(client, settings),
                new RestoreReconciler(client, settings)));
    HttpServer server = null;
    if (metricsPort >= 0) {
      server = HttpServer.create(new InetSocketAddress(metricsPort), 0);
      server.createContext(
          "/metrics",
          exchange -> {
            byte[] body = registry.scrape().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
              out.write(body);
            }
          });
      server.start();
    }
    operator.start();
    return new SteleOperator(operator, server);
  }

  /** The port {@code /metrics} listens on, or -1. */
  public int metricsPort() {
    return metricsServer == null ? -1 : metricsServer.getAddress().getPort();
  }

  @Override
  public void close() {
    operator.stop();
    if (metricsServer != null) {
      metricsServer.stop(0);
    }
  }
}
