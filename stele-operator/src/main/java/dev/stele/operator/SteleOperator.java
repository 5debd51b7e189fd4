package dev.stele.operator;

import com.sun.net.httpserver.HttpServer;
import dev.stele.operator.backup.BackupReconciler;
import dev.stele.operator.deletion.BackupExpiryReconciler;
import dev.stele.operator.deletion.DeleteBackupRequestReconciler;
import dev.stele.operator.kube.HealthEndpoints;
import dev.stele.operator.kube.OperatorMetrics;
import dev.stele.operator.kube.Operators;
import dev.stele.operator.kube.Settings;
import dev.stele.operator.location.LocationReconciler;
import dev.stele.operator.repository.RepositoryReconciler;
import dev.stele.operator.restore.RestoreReconciler;
import dev.stele.operator.schedule.ScheduleReconciler;
import dev.stele.operator.server.ServerReconciler;
import dev.stele.operator.store.OpenRepositories;
import dev.stele.operator.sync.BackupSyncReconciler;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfigurationBuilder;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator process: the location, repository, backup and restore reconcilers, and those of a
 * backup's life after it is written (schedule, expiry, deletion, sync), on java-operator-sdk,
 * watching the namespace they run in (or all namespaces the client may see), and Prometheus metrics
 * on {@code /metrics}, with the probes of {@link HealthEndpoints} beside them.
 *
 * <p>Replicas elect a leader through the Lease {@value #LEASE} ({@link #leaderElection}): only the
 * holder reconciles, the others keep their informers synced and take over when it stops renewing.
 * {@link #close} stops the reconcilers and releases the Lease, so a successor starts at once.
 *
 * <p>{@code serverSideApply} is true in production; tests against fabric8's mock server, which
 * answers 415 to apply patches, turn it off.
 */
public final class SteleOperator implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(SteleOperator.class);

  /** The name of the Lease the operator's replicas elect their leader with. */
  public static final String LEASE = "stele-operator";

  /** The image deploy/ names, for when the operator cannot learn its own. */
  public static final String DEFAULT_IMAGE = Settings.DEFAULT_IMAGE;

  private final Operator operator;
  private final @Nullable HttpServer metricsServer;
  private final Runnable releaseLease;
  private final OpenRepositories repositories;

  private SteleOperator(
      Operator operator,
      @Nullable HttpServer metricsServer,
      Runnable releaseLease,
      OpenRepositories repositories) {
    this.operator = operator;
    this.metricsServer = metricsServer;
    this.releaseLease = releaseLease;
    this.repositories = repositories;
  }

  /**
   * Starts the operator as the command line runs it: default settings, server-side apply, and
   * Stele's containers running {@code image}, or when that is null the image of the operator's own
   * pod {@code podNamespace}/{@code podName} (read through the API), else {@link #DEFAULT_IMAGE}.
   *
   * @param namespace the only namespace to watch; null or blank: all
   * @param leaderElection whether to reconcile only while holding the Lease {@value #LEASE}
   */
  public static SteleOperator start(
      KubernetesClient client,
      @Nullable String namespace,
      @Nullable String image,
      @Nullable String podNamespace,
      @Nullable String podName,
      int metricsPort,
      boolean leaderElection)
      throws IOException {
    String own = image != null ? image : OwnImage.of(client, podNamespace, podName, DEFAULT_IMAGE);
    return start(
        client,
        Settings.defaults().withImage(own),
        metricsPort,
        true,
        namespace,
        leaderElection ? leaderElection(namespace) : null);
  }

  /**
   * Starts the operator.
   *
   * @param metricsPort the port of {@code /metrics}, or a negative number for none
   */
  @SuppressWarnings("exports") // the tests' entry: they pass settings of their own
  public static SteleOperator start(
      KubernetesClient client, Settings settings, int metricsPort, boolean serverSideApply)
      throws IOException {
    return start(client, settings, metricsPort, serverSideApply, System.getenv("WATCH_NAMESPACE"));
  }

  /**
   * Starts the operator without leader election (one process).
   *
   * @param metricsPort the port of {@code /metrics}, or a negative number for none
   * @param namespace the only namespace to watch (WATCH_NAMESPACE); null or blank: all
   */
  @SuppressWarnings("exports") // the tests' entry: they pass settings of their own
  public static SteleOperator start(
      KubernetesClient client,
      Settings settings,
      int metricsPort,
      boolean serverSideApply,
      @Nullable String namespace)
      throws IOException {
    return start(client, settings, metricsPort, serverSideApply, namespace, null);
  }

  /**
   * Production's leader election: the Lease {@value #LEASE} in {@code namespace} (null or blank:
   * the client's), held by the pod's name (HOSTNAME; outside a pod, this host's name and the
   * process id), with java-operator-sdk's default timings (a lease of 15 s renewed every 2 s).
   *
   * <p>A leader that fails to renew exits (status 1), so that two never reconcile at once; its pod
   * restarts as a follower. Not java-operator-sdk's own exit, which calls {@code System.exit} on
   * the thread that stops the operator: from inside the SIGTERM shutdown hook that blocks until the
   * hook's time runs out. Here a lease given up because the JVM is shutting down ends nothing, and
   * a lease lost otherwise exits from a thread of its own, which runs the same graceful stop.
   */
  public static LeaderElectionConfiguration leaderElection(@Nullable String namespace) {
    String identity = System.getenv("HOSTNAME");
    if (identity == null || identity.isBlank()) {
      String host;
      try {
        host = java.net.InetAddress.getLocalHost().getHostName();
      } catch (java.net.UnknownHostException e) {
        host = "localhost";
      }
      identity = host + "-" + ProcessHandle.current().pid();
    }
    var builder =
        LeaderElectionConfigurationBuilder.aLeaderElectionConfiguration(LEASE)
            .withIdentity(identity)
            .withExitOnStopLeading(false)
            .withLeaderCallbacks(
                new LeaderCallbacks(() -> {}, SteleOperator::stoppedLeading, leader -> {}));
    if (namespace != null && !namespace.isBlank()) {
      builder.withLeaseNamespace(namespace);
    }
    return builder.build();
  }

  private static void stoppedLeading() {
    if (shuttingDown()) {
      return; // close() releases the Lease
    }
    LOG.error("lost the Lease {}: exiting, so that only the new leader reconciles", LEASE);
    new Thread(() -> System.exit(1), "stele-operator-lost-lease").start();
  }

  /**
   * Gives up the Lease if this process holds it, once its reconcilers have stopped, so that a
   * follower takes over at its next try rather than when the lease expires (java-operator-sdk
   * leaves the Lease to expire). The update is conditional on the Lease's version: a Lease that
   * changed hands meanwhile is left alone.
   */
  private static void release(KubernetesClient client, LeaderElectionConfiguration election) {
    String namespace = election.getLeaseNamespace().orElse(client.getNamespace());
    String identity = election.getIdentity().orElse(null);
    try {
      Lease lease = client.leases().inNamespace(namespace).withName(election.getLeaseName()).get();
      if (lease == null
          || identity == null
          || !identity.equals(lease.getSpec().getHolderIdentity())) {
        return;
      }
      lease.getSpec().setHolderIdentity(null);
      lease.getSpec().setLeaseDurationSeconds(1);
      client.resource(lease).update();
      LOG.info("released the Lease {}", election.getLeaseName());
    } catch (KubernetesClientException e) {
      LOG.warn("could not release the Lease {}: {}", election.getLeaseName(), e.getMessage());
    }
  }

  /** Whether the JVM is running its shutdown hooks (no hook can be added then). */
  private static boolean shuttingDown() {
    Thread probe = new Thread(() -> {});
    try {
      Runtime.getRuntime().addShutdownHook(probe);
      Runtime.getRuntime().removeShutdownHook(probe);
      return false;
    } catch (IllegalStateException e) {
      return true;
    }
  }

  /**
   * Starts the operator.
   *
   * @param metricsPort the port of {@code /metrics}, {@code /healthz} and {@code /readyz}, or a
   *     negative number for none
   * @param namespace the only namespace to watch (WATCH_NAMESPACE); null or blank: all
   * @param leaderElection null: this process reconciles alone; else it does only as the leader
   */
  @SuppressWarnings("exports") // the tests' entry: they pass settings of their own
  public static SteleOperator start(
      KubernetesClient client,
      Settings settings,
      int metricsPort,
      boolean serverSideApply,
      @Nullable String namespace,
      @Nullable LeaderElectionConfiguration leaderElection)
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
                new RestoreReconciler(client, settings),
                new ServerReconciler(client, settings)),
            leaderElection);
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
      HealthEndpoints.add(server, operator);
      server.start();
    }
    try {
      Operators.start(operator, client);
    } catch (IOException | RuntimeException e) {
      if (server != null) {
        server.stop(0); // its thread would keep the process alive
      }
      throw e;
    }
    return new SteleOperator(
        operator,
        server,
        leaderElection == null ? () -> {} : () -> release(client, leaderElection),
        settings.repositories());
  }

  /** The port {@code /metrics} listens on, or -1. */
  public int metricsPort() {
    return metricsServer == null ? -1 : metricsServer.getAddress().getPort();
  }

  @Override
  public void close() {
    operator.stop();
    repositories.close();
    releaseLease.run();
    if (metricsServer != null) {
      metricsServer.stop(0);
    }
  }
}
