package dev.stele.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stele.k8s.api.BackupStorageLocation;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.BackupStorageLocationSpec;
import dev.stele.k8s.api.LocationPhase;
import dev.stele.k8s.api.RepositoryPhase;
import dev.stele.k8s.testing.ApiServer;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stele operator} as a process of its own, configured the way a person outside a cluster
 * configures it (a kubeconfig file in KUBECONFIG, WATCH_NAMESPACE), in production's configuration
 * (server-side apply, leader election, JSON logs) against the test API server ({@link ApiServer}):
 * it starts, says so, takes the Lease, becomes ready, serves /metrics, validates a location and
 * makes its repository, logs one JSON object per line, and on SIGTERM stops and releases the Lease.
 */
class OperatorCommandTest {
  ApiServer server;
  KubernetesClient client;

  @TempDir Path dir;

  @BeforeEach
  void start() {
    server = new ApiServer();
    client = server.client();
  }

  @AfterEach
  void stop() {
    client.close();
    server.close();
  }

  @Test
  void startsServesMetricsValidatesAndStopsOnSigterm() throws Exception {
    long started = System.nanoTime();
    Process process =
        ClusterFixture.start(
            client,
            dir,
            Map.of("WATCH_NAMESPACE", "stele", "HOSTNAME", "operator-a"),
            "operator",
            "--metrics-port",
            "0",
            "--log-format",
            "json");
    try {
      String first = awaitStdout("stele operator running", 60);
      assertThat(first)
          .as("stdout: %s; stderr: %s", stdout(), stderr())
          .startsWith("stele operator running against " + client.getMasterUrl())
          .contains("(namespace stele)");
      System.err.printf(
          "OperatorCommandTest: running after %d ms%n",
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
      Matcher m = Pattern.compile("metrics and probes on port (\\d+)").matcher(first);
      assertThat(m.find()).isTrue();
      int port = Integer.parseInt(m.group(1));
      assertThat(first).endsWith("reconciling while it holds the Lease stele-operator");
      assertThat(get(port, "/healthz").statusCode()).isEqualTo(200);
      await("ready", () -> get(port, "/readyz").statusCode() == 200);
      await("the Lease held by operator-a", () -> "operator-a".equals(holder()));

      // A location in the watched namespace is validated by the process.
      Files.createDirectories(dir.resolve("bucket"));
      var spec = new BackupStorageLocationSpec();
      spec.provider = "filesystem";
      spec.config = Map.of("path", dir.toString());
      spec.objectStorage = new BackupStorageLocationSpec.ObjectStorage();
      spec.objectStorage.bucket = "bucket";
      var bsl = new BackupStorageLocation();
      bsl.setMetadata(new ObjectMetaBuilder().withName("default").withNamespace("stele").build());
      bsl.setSpec(spec);
      client.resource(bsl).create();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      LocationPhase phase = null;
      while (System.nanoTime() < deadline && phase != LocationPhase.AVAILABLE) {
        var got =
            client.resources(BackupStorageLocation.class).inNamespace("stele").withName("default");
        phase = got.get().getStatus() == null ? null : got.get().getStatus().phase;
        Thread.sleep(100);
      }
      assertThat(phase).as("phase; stderr: %s", stderr()).isEqualTo(LocationPhase.AVAILABLE);

      // Its repository too: finalizer and status go through server-side apply.
      await(
          "repository Ready",
          () -> {
            var r =
                client
                    .resources(BackupStorageLocationRepository.class)
                    .inNamespace("stele")
                    .withName("default")
                    .get();
            return r != null
                && r.getStatus() != null
                && r.getStatus().phase == RepositoryPhase.READY;
          });

      var metrics = get(port, "/metrics");
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
      // The Lease is released: a successor need not wait for it to expire.
      assertThat(holder()).isNullOrEmpty();

      List<String> logs = stderr().lines().toList();
      assertThat(logs).isNotEmpty();
      ObjectMapper json = new ObjectMapper();
      for (String line : logs) {
        JsonNode event = json.readTree(line);
        assertThat(event.path("level").asText()).as(line).isIn("INFO", "WARN", "ERROR");
        assertThat(event.has("formattedMessage")).as(line).isTrue();
        assertThat(event.has("loggerName")).as(line).isTrue();
      }
    } finally {
      process.destroyForcibly();
    }
  }

  @Test
  void anUnknownLogFormatIsAUsageError() {
    var run = new dev.stele.cli.Cli(null, null).run("--log-format", "xml", "operator");
    assertThat(run.exitCode()).isEqualTo(dev.stele.cli.ExitCode.USAGE);
    assertThat(run.errorLines()).containsExactly("stele: --log-format xml: use text or json");
  }

  private String holder() {
    Lease lease = client.leases().inNamespace("stele").withName("stele-operator").get();
    return lease == null ? null : lease.getSpec().getHolderIdentity();
  }

  private static HttpResponse<String> get(int port, String path) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).build(),
            HttpResponse.BodyHandlers.ofString());
  }

  interface Check {
    boolean ok() throws Exception;
  }

  private void await(String what, Check check) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!check.ok()) {
      assertThat(System.nanoTime()).as("%s; stderr: %s", what, stderr()).isLessThan(deadline);
      Thread.sleep(100);
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
