package dev.stele.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.cli.Cli;
import dev.stele.cli.ExitCode;
import dev.stele.k8s.api.BackupStatus;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.RunPhase;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stele backup logs}: the CLI finds the backup's repository through the API (location,
 * repository, password Secret, set up as the operator leaves them), opens it from this machine and
 * prints {@code backup.log} from the root of the backup's snapshot, written here with stele-core
 * into a filesystem location. It only reads: the repository's files are unchanged afterwards.
 */
@EnableKubernetesMockClient(crud = true)
class BackupLogsCommandTest {
  private static final String LOG =
      """
      2030-01-02T03:04:05Z collecting configmaps in app
      2030-01-02T03:04:06Z 7 items, 0 warnings, 0 errors
      """;

  KubernetesClient client;
  @TempDir Path dir;
  ClusterFixture k8s;
  RepositoryFixture repository;
  Path repositoryDir;
  String snapshot;

  @BeforeEach
  void setUp() throws IOException {
    k8s = new ClusterFixture(client, dir);
    repository = new RepositoryFixture(k8s, dir);
    repositoryDir = repository.repositoryDir;
    // A backup's snapshot as the operator leaves it: backup.log and resources/ at its root.
    snapshot =
        repository.snapshot(
            Map.of(
                "backup.log",
                LOG.getBytes(StandardCharsets.UTF_8),
                "resources/a.json",
                "{\"kind\":\"ConfigMap\"}".getBytes(StandardCharsets.UTF_8)),
            "backup");
  }

  @Test
  void printsTheLogFromTheBackupsSnapshotAndWritesNothing() throws IOException {
    BackupStatus s = ClusterFixture.status(RunPhase.COMPLETED);
    s.snapshotID = snapshot;
    s.repository = "team-a";
    k8s.backup("nightly", null, s);
    Map<String, FileTime> before = repository.files();

    Cli.Run run = k8s.run("backup", "logs", "nightly");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.stdout()).isEqualTo(LOG);
    assertThat(run.stderr()).isEmpty();
    assertThat(repository.files()).isEqualTo(before);
  }

  @Test
  void findsTheLocationsDefaultRepositoryWhenTheStatusNamesNone() {
    BackupStorageLocationRepository bslr = k8s.get(BackupStorageLocationRepository.class, "team-a");
    bslr.getMetadata().setLabels(Map.of("stele.dev/default-repository", "true"));
    client.resource(bslr).update();
    var spec = new dev.stele.k8s.api.BackupSpec();
    spec.storageLocation = "primary";
    BackupStatus s = ClusterFixture.status(RunPhase.COMPLETED);
    s.snapshotID = snapshot.substring(0, 12);
    k8s.backup("synced", spec, s);

    Cli.Run run = k8s.run("backup", "logs", "synced");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.stdout()).isEqualTo(LOG);
  }

  @Test
  void aBackupWithoutASnapshotHasNoLogYet() {
    k8s.backup("running", null, ClusterFixture.status(RunPhase.IN_PROGRESS));
    BackupStatus failed = ClusterFixture.status(RunPhase.FAILED);
    failed.message = "repository team-z does not exist";
    k8s.backup("broken", null, failed);

    Cli.Run running = k8s.run("backup", "logs", "running");
    assertThat(running.exitCode()).isEqualTo(ExitCode.NOT_FOUND);
    assertThat(running.errorLines())
        .containsExactly(
            "stele: backup running has no log yet: it is InProgress, and its log is written with"
                + " its snapshot when it finishes");

    Cli.Run broken = k8s.run("backup", "logs", "broken");
    assertThat(broken.exitCode()).isEqualTo(ExitCode.NOT_FOUND);
    assertThat(broken.errorLines())
        .containsExactly(
            "stele: backup broken failed before its snapshot was written, so the repository holds"
                + " no log of it (repository team-z does not exist)");
  }

  @Test
  void aWrongPasswordInTheSecretIsOneLine() {
    k8s.client
        .secrets()
        .inNamespace(ClusterFixture.NS)
        .withName("team-a-repository-password")
        .delete();
    k8s.secret("team-a-repository-password", "password", "not it");
    BackupStatus s = ClusterFixture.status(RunPhase.COMPLETED);
    s.snapshotID = snapshot;
    s.repository = "team-a";
    k8s.backup("nightly", null, s);

    Cli.Run run = k8s.run("backup", "logs", "nightly");

    assertThat(run.exitCode()).isEqualTo(ExitCode.WRONG_PASSWORD);
    assertThat(run.errorLines()).hasSize(1);
    assertThat(run.stdout()).isEmpty();
  }

  @Test
  void aLocationDirectoryNotOnThisMachineIsSaidSo() throws IOException {
    BackupStatus s = ClusterFixture.status(RunPhase.COMPLETED);
    s.snapshotID = snapshot;
    s.repository = "team-a";
    k8s.backup("nightly", null, s);
    Files.move(dir.resolve("bucket"), dir.resolve("moved"));

    Cli.Run run = k8s.run("backup", "logs", "nightly");

    assertThat(run.exitCode()).isEqualTo(ExitCode.NOT_FOUND);
    assertThat(run.errorLines())
        .containsExactly(
            "stele: the repository is in a directory mounted into the operator ("
                + repositoryDir
                + "), which is not on this machine");
  }
}
