package dev.stele.operator;

import static dev.stele.operator.OperatorFixture.NS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.k8s.api.BackupStorageLocation;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.BackupStorageLocationRepositorySpec;
import dev.stele.k8s.api.BackupStorageLocationSpec;
import dev.stele.k8s.api.DeletionPolicy;
import dev.stele.k8s.api.LocationPhase;
import dev.stele.k8s.api.RepositoryPhase;
import dev.stele.operator.kube.Settings;
import dev.stele.testing.Await;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole operator, as {@code stele operator} starts it ({@link SteleOperator#start}: the
 * java-operator-sdk {@code Operator} with its informers, finalizer, retries), against fabric8's
 * CRUD mock API server. Server-side apply is off only because the mock answers 415 to apply
 * patches. The test talks to the API server the way kubectl would (create, edit, delete resources)
 * and waits for the operator to act.
 *
 * <p>The repository recheck stays at its production value (1 minute), so every reaction below
 * within the test's timeout was driven by a watch event, not by a periodic recheck.
 */
@EnableKubernetesMockClient(crud = true)
class RunningOperatorTest {
  static KubernetesClient client;

  @TempDir Path base;
  OperatorFixture op;
  SteleOperator operator;

  @AfterEach
  void stop() {
    if (operator != null) {
      operator.close();
    }
    op.assertWriteOnce();
  }

  BackupStorageLocationSpec spec() {
    var spec = OperatorFixture.filesystemLocation(base);
    spec.credential = new SecretKeySelector("cloud", "cloud-credentials", false);
    spec.validationFrequency = "1s";
    return spec;
  }

  void credentials() {
    op.secret(
        "cloud-credentials",
        Map.of("cloud", "[default]\naws_access_key_id=AK\naws_secret_access_key=SK\n"));
  }

  BackupStorageLocation awaitLocation(String name, LocationPhase phase) {
    return Await.until(
        name + " " + phase,
        () -> op.bsl(name),
        b -> b.getStatus() != null && b.getStatus().phase == phase);
  }

  BackupStorageLocationRepository awaitRepository(String name, RepositoryPhase phase) {
    return Await.until(
        name + " " + phase,
        () -> op.bslr(name),
        r -> r.getStatus() != null && r.getStatus().phase == phase);
  }

  static long files(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return 0;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile).count();
    }
  }

  @Test
  void theOperatorProvisionsFollowsItsLocationAndDeletes() throws Exception {
    long started = System.nanoTime();
    op = new OperatorFixture(client, Clock.systemUTC());
    Files.createDirectories(base.resolve("bucket"));
    operator =
        SteleOperator.start(
            client,
            new Settings(Clock.systemUTC(), op.stores, OperatorFixture::cheapKdf),
            0,
            false);

    // kubectl apply -f secret.yaml -f bsl.yaml
    credentials();
    op.bsl("default", spec());
    var bsl = awaitLocation("default", LocationPhase.AVAILABLE);
    assertThat(bsl.getStatus().lastValidationTime).isNotNull();
    var repo = awaitRepository("default", RepositoryPhase.READY);
    assertThat(repo.getStatus().repositoryID).isNotBlank();
    assertThat(repo.getMetadata().getFinalizers()).isNotEmpty();
    assertThat(op.secretValue("default-repository-password", "password")).hasSizeGreaterThan(40);
    assertThat(base.resolve("bucket/velero/repositories/default/stele.format")).exists();
    String defaultId = repo.getStatus().repositoryID;

    // A second repository in the same location, which goes when its resource goes.
    var teamSpec = new BackupStorageLocationRepositorySpec();
    teamSpec.backupStorageLocation = "default";
    teamSpec.deletionPolicy = DeletionPolicy.DELETE.value();
    op.bslr("team-a", teamSpec);
    var team = awaitRepository("team-a", RepositoryPhase.READY);
    assertThat(team.getStatus().repositoryID).isNotEqualTo(defaultId);
    Path teamDir = base.resolve("bucket/velero/repositories/team-a");
    assertThat(teamDir.resolve("stele.format")).exists();

    // kubectl edit bsl default: config.path now names a file, not a directory.
    Path notADirectory = Files.writeString(base.resolve("not-a-directory"), "x");
    client
        .resources(BackupStorageLocation.class)
        .inNamespace(NS)
        .withName("default")
        .edit(
            b -> {
              b.getSpec().config = Map.of("path", notADirectory.toString());
              return b;
            });
    assertThat(awaitLocation("default", LocationPhase.UNAVAILABLE).getStatus().message)
        .contains("does not exist");
    assertThat(awaitRepository("default", RepositoryPhase.NOT_READY).getStatus().message)
        .contains("BackupStorageLocation default is Unavailable");
    awaitRepository("team-a", RepositoryPhase.NOT_READY);
    // Events follow the status writes awaited above.
    Await.until(
        "the repository's NotReady event",
        () -> op.eventReasons("default"),
        r -> r.contains("Unavailable") && r.contains("NotReady"));

    // Fixed: both repositories are Ready again, the same ones.
    client
        .resources(BackupStorageLocation.class)
        .inNamespace(NS)
        .withName("default")
        .edit(
            b -> {
              b.getSpec().config = Map.of("path", base.toString());
              return b;
            });
    awaitLocation("default", LocationPhase.AVAILABLE);
    assertThat(awaitRepository("default", RepositoryPhase.READY).getStatus().repositoryID)
        .isEqualTo(defaultId);
    awaitRepository("team-a", RepositoryPhase.READY);

    // The credentials Secret disappears: no spec changes, the next validation (1s) notices.
    client.secrets().inNamespace(NS).withName("cloud-credentials").delete();
    assertThat(awaitLocation("default", LocationPhase.UNAVAILABLE).getStatus().message)
        .contains("cloud-credentials");
    awaitRepository("team-a", RepositoryPhase.NOT_READY);
    credentials();
    awaitLocation("default", LocationPhase.AVAILABLE);
    awaitRepository("team-a", RepositoryPhase.READY);
    awaitRepository("default", RepositoryPhase.READY);

    // kubectl delete bslr team-a: the finalizer deletes the repository, then the resource goes.
    client
        .resources(BackupStorageLocationRepository.class)
        .inNamespace(NS)
        .withName("team-a")
        .delete();
    Await.until("team-a gone", () -> op.bslr("team-a") == null ? "gone" : null, s -> true);
    assertThat(files(teamDir)).isZero();
    assertThat(op.eventReasons("team-a")).contains("RepositoryDeleted");
    assertThat(base.resolve("bucket/velero/repositories/default/stele.format")).exists();
    assertThat(op.secretValue("team-a-repository-password", "password")).isNotNull();

    // Malformed resources: a message in the status and an Event, nothing else.
    var unknown = spec();
    unknown.provider = "nfs";
    op.bsl("unknown", unknown);
    assertThat(awaitLocation("unknown", LocationPhase.UNAVAILABLE).getStatus().message)
        .contains("nfs is not supported");
    var often = spec();
    often.validationFrequency = "often";
    op.bsl("often", often);
    assertThat(awaitLocation("often", LocationPhase.UNAVAILABLE).getStatus().message)
        .contains("often");
    Await.until(
        "Unavailable events",
        () -> op.eventReasons("unknown").contains("Unavailable") ? op.eventReasons("often") : null,
        e -> e.contains("Unavailable"));
    assertThat(op.bslr("unknown")).isNull();

    // Metrics are served.
    var metrics =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create("http://localhost:" + operator.metricsPort() + "/metrics"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(metrics.statusCode()).isEqualTo(200);
    assertThat(metrics.body())
        .contains("stele_location_phase{")
        .contains("stele_repository_phase{");
    System.err.printf(
        "RunningOperatorTest: scenario took %d ms%n",
        Duration.ofNanos(System.nanoTime() - started).toMillis());
  }
}
