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
import dev.stele.testing.Await;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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

  /** Starting a JVM and an operator takes a while on a loaded machine; stderr says why not. */
  private final Await.Policy patiently =
      Await.atMost(Duration.ofSeconds(60)).showing(() -> "stderr: " + stderr());

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
      String first =
          patiently.until(
              "stdout to say the operator runs",
              () ->
                  stdout()
                      .lines()
                      .filter(l -> l.startsWith("stele operator running"))
                      .findFirst()
                      .orElse(null),
              l -> true);
      assertThat(first)
          .as("stdout: %s; stderr: %s", stdout(), stderr())
          .startsWith("stele operator running against " + client.getMasterUrl())
          .contains("(namespace stele, kubeconfig " + dir.resolve("kubeconfig") + ")");
      System.err.printf(
          "OperatorCommandTest: running after %d ms%n",
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
      Matcher m = Pattern.compile("metrics and probes on port (\\d+)").matcher(first);
      assertThat(m.find()).isTrue();
      int port = Integer.parseInt(m.group(1));
      assertThat(first).endsWith("reconciling while it holds the Lease stele-operator");
      assertThat(get(port, "/healthz").statusCode()).isEqualTo(200);
      patiently.until("ready", () -> get(port, "/readyz").statusCode() == 200);
      patiently.until("the Lease held by operator-a", () -> "operator-a".equals(holder()));

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
      patiently.until(
          "the location Available",
          () -> {
            var got =
                client
                    .resources(BackupStorageLocation.class)
                    .inNamespace("stele")
                    .withName("default")
                    .get();
            return got.getStatus() == null ? null : got.getStatus().phase;
          },
          phase -> phase == LocationPhase.AVAILABLE);

      // Its repository too: finalizer and status go through server-side apply.
      patiently.until(
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
  void helpNamesEveryResourceTheOperatorReconciles() {
    var run = new dev.stele.cli.Cli(null, null).run("operator", "--help");
    assertThat(run.exitCode()).isZero();
    String help = run.stdout().replaceAll("\\s+", " ");
    for (String kind :
        List.of(
            "BackupStorageLocations",
            "BackupStorageLocationRepositories",
            "Backups",
            "Schedules",
            "DeleteBackupRequests",
            "Restores")) {
      assertThat(help).contains(kind);
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

  private String stdout() {
    return ClusterFixture.output(dir, "stdout");
  }

  private String stderr() {
    return ClusterFixture.output(dir, "stderr");
  }
}
