package dev.stele.cli.cluster;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import dev.stele.cli.ExitCode;
import dev.stele.cli.SteleCommand;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.Closeable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.LoggerFactory;

/**
 * Base of the commands that run a service inside a cluster until the process is stopped ({@code
 * operator}, {@code node-agent}): connects with {@link KubeClients}, starts the service in the
 * namespace WATCH_NAMESPACE names (all when unset), says so in one line (with where it found the
 * cluster: a kubeconfig file, or the in-cluster service account), and on SIGTERM or SIGINT stops it
 * and says so. Work cut short is resumed or redone by the next process.
 */
abstract class InClusterCommand<S extends Closeable> extends SteleCommand {
  private final String name;

  /** {@code name}: the command's, as in {@code stele NAME running …}. */
  InClusterCommand(String name) {
    this.name = name;
  }

  /** Checks the options before anything starts; a failure stops the command. */
  void check() {}

  /** Starts the service; {@code namespace} is null or blank for all namespaces. */
  abstract S start(KubernetesClient client, String namespace) throws Exception;

  /** The rest of the line {@code stele NAME running …}, given where: {@code against URL (ns)}. */
  abstract String running(S service, String where);

  @Override
  public final Integer call() throws Exception {
    check();
    // A service says what it does (INFO), where a command a person runs stays quiet.
    if (LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME) instanceof Logger root
        && !root.isInfoEnabled()) {
      root.setLevel(Level.INFO);
    }
    CountDownLatch stopped = new CountDownLatch(1);
    CountDownLatch closed = new CountDownLatch(1);
    // On SIGTERM the JVM runs this hook and exits when it returns: it waits (a while) until the
    // service has stopped its informers and executors.
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
            "stele-" + name + "-shutdown");
    KubeConfigs.Found cluster = KubeClients.find(env());
    try (KubernetesClient client = KubeClients.client(cluster)) {
      String namespace = env().variable("WATCH_NAMESPACE");
      try (S service = start(client, namespace)) {
        Runtime.getRuntime().addShutdownHook(hook);
        String where =
            "against "
                + client.getMasterUrl()
                + (namespace == null || namespace.isBlank()
                    ? " (all namespaces, "
                    : " (namespace " + namespace + ", ")
                + cluster.source()
                + ")";
        out().println("stele " + name + " running " + running(service, where));
        out().flush();
        stopped.await();
      }
      out().println("stele " + name + " stopped");
      out().flush();
    } finally {
      closed.countDown();
    }
    return ExitCode.OK;
  }
}
