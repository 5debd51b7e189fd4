package dev.stele.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.k8s.api.BackupStorageLocation;
import dev.stele.k8s.api.BackupStorageLocationSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stele operator} as a process of its own, configured the way a person outside a cluster
 * configures it (a kubeconfig file in KUBECONFIG, WATCH_NAMESPACE), against fabric8's CRUD mock API
 * server: it starts, says so, serves /metrics, validates a location, and stops on SIGTERM.
 *
 * <p>The command runs with server-side apply on, as in production; the mock answers 415 to apply
 * patches, so only the location reconciler (which patches nothing) is exercised here. The whole
 * operator with SSA off is {@code RunningOperatorTest} in stele-operator.
 */
@EnableKubernetesMockClient(crud = true)
class OperatorCommandTest {
  static KubernetesClient client;

  @TempDir Path dir;

  @Test
  void startsServesMetricsValidatesAndStopsOnSigterm() throws Exception {
    long started = System.nanoTime();
    Process process =
        ClusterFixture.start(
            client, dir, Map.of("WATCH_NAMESPACE", "stele"), "operator", "--metrics-port", "0");
    try {
      String first = awaitStdout("stele operator running", 60);
      assertThat(first)
          .as("stdout: %s; stderr: %s", stdout(), stderr())
          .startsWith("stele operator running against " + client.getMasterUrl())
          .contains("(namespace stele)");
      System.err.printf(
          "OperatorCommandTest: running after %d ms%n",
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
      Matcher m = Pattern.compile("metrics on port (\\d+)").matcher(first);
      assertThat(m.find()).isTrue();
      int port = Integer.parseInt(m.group(1));

      // A location in the watched namespace is validated by the process.
      Files.createDirectories(dir.resolve("bucket"));
      var spec = new BackupStorageLocationSpec();
      spec.provider = "filesystem";
      spec.config = Map.of("path", dir.toString());
      spec.objectStorage = new BackupStorageLocationSpec.ObjectStorage();
      spec.objectStorage.bucket = "bucket";
      spec.createDefaultRepository = false;
      var bsl = new BackupStorageLocation();
      bsl.setMetadata(new ObjectMetaBuilder().withName("default").withNamespace("stele").build());
      bsl.setSpec(spec);
      client.resource(bsl).create();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      String phase = null;
      while (System.nanoTime() < deadline && !"Available".equals(phase)) {
        var got =
            client.resources(BackupStorageLocation.class).inNamespace("stele").withName("default");
        phase = got.get().getStatus() == null ? null : got.get().getStatus().phase;
        Thread.sleep(100);
      }
      assertThat(phase).as("phase; stderr: %s", stderr()).isEqualTo("Available");

      var metrics =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/metrics"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(metrics.statusCode()).isEqualTo(200);
      assertThat(metrics.body())
          .contains("stele_location_phase{")
          .contains("name=\"default\"")
          .contains("phase=\"Available\"");

      long stopping = System.nanoTime();
      process.destroy(); // SIGTERM
      assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
      System.err.printf(
          "OperatorCommandTest: stopped %d ms after SIGTERM%n",
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopping));
      assertThat(stdout().lines().toList())
          .as("stderr: %s", stderr())
          .contains("stele operator stopped");
      // 143: terminated by SIGTERM, after the shutdown hook let the operator stop.
      assertThat(process.exitValue()).isEqualTo(143);
    } finally {
      process.destroyForcibly();
    }
  }

  /** The first line of stdout that starts with {@code prefix}, waiting up to {@code seconds}. */
  private String awaitStdout(String prefix, int seconds) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (System.nanoTime() < deadline) {
      var line = stdout().lines().filter(l -> l.startsWith(prefix)).findFirst();
      if (line.isPresent()) {
        return line.get();
      }
      Thread.sleep(100);
    }
    return null;
  }

  private String stdout() {
    return ClusterFixture.output(dir, "stdout");
  }

  private String stderr() {
    return ClusterFixture.output(dir, "stderr");
  }
}
