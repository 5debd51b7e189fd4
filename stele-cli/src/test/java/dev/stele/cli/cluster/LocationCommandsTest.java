package dev.stele.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.cli.Cli;
import dev.stele.cli.ExitCode;
import dev.stele.cli.Format;
import dev.stele.k8s.api.BackupSpec;
import dev.stele.k8s.api.BackupStatus;
import dev.stele.k8s.api.BackupStorageLocation;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.BackupStorageLocationRepositoryStatus;
import dev.stele.k8s.api.BackupStorageLocationSpec;
import dev.stele.k8s.api.BackupStorageLocationStatus;
import dev.stele.k8s.api.LocationPhase;
import dev.stele.k8s.api.RepositoryPhase;
import dev.stele.k8s.api.RunPhase;
import dev.stele.k8s.api.SteleApi;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stele backup-location create|get|set|delete} and {@code stele repository get} against
 * fabric8's CRUD mock API server; the test writes statuses as the operator would.
 */
@EnableKubernetesMockClient(crud = true)
class LocationCommandsTest {
  KubernetesClient client;
  KubernetesMockServer server;
  @TempDir Path dir;
  ClusterFixture k8s;

  @BeforeEach
  void setUp() throws IOException {
    k8s = new ClusterFixture(client, dir);
  }

  private Cli.Run createPrimary() {
    return k8s.run(
        "backup-location",
        "create",
        "primary",
        "--provider",
        "aws",
        "--bucket",
        "backups",
        "--prefix",
        "cluster-a",
        "--config",
        "region=us-east-1,s3Url=https://rgw.example:8443,s3ForcePathStyle=true",
        "--credential",
        "cloud=credentials",
        "--access-mode",
        "ReadWrite",
        "--lock-mode",
        "compliance",
        "--min-retention",
        "30d");
  }

  @Test
  void createMakesTheLocationTheOptionsDescribe() {
    Cli.Run run = createPrimary();

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.stdout())
        .startsWith("Backup storage location \"primary\" created in namespace stele");
    BackupStorageLocationSpec spec = k8s.get(BackupStorageLocation.class, "primary").getSpec();
    assertThat(spec.provider).isEqualTo("s3");
    assertThat(spec.objectStorage.bucket).isEqualTo("backups");
    assertThat(spec.objectStorage.prefix).isEqualTo("cluster-a");
    assertThat(spec.config)
        .isEqualTo(
            Map.of(
                "region", "us-east-1",
                "s3Url", "https://rgw.example:8443",
                "s3ForcePathStyle", "true"));
    assertThat(spec.credential.getName()).isEqualTo("cloud");
    assertThat(spec.credential.getKey()).isEqualTo("credentials");
    assertThat(spec.accessMode).isEqualTo("ReadWrite");
    assertThat(spec.objectLock.mode).isEqualTo("Compliance");
    assertThat(spec.objectLock.minimumRetention).isEqualTo("30d");

    Cli.Run again = createPrimary();
    assertThat(again.exitCode()).isEqualTo(ExitCode.ERROR);
    assertThat(again.errorLines())
        .containsExactly(
            "stele: backup storage location primary already exists in namespace stele");
  }

  @Test
  void createRefusesWhatStelesLocationsCannotTakeAndCreatesNothing() {
    assertUsage(
        "stele: --config insecureSkipTLSVerify: not a setting of provider s3 in Stele (it takes"
            + " profile, region, s3ForcePathStyle, s3Url)",
        "backup-location",
        "create",
        "x",
        "--provider",
        "s3",
        "--bucket",
        "backups",
        "--config",
        "insecureSkipTLSVerify=true");
    assertUsage(
        "stele: --default: in Stele the default location is the one named default (Backups"
            + " without --storage-location go there); name this one default, or give the location"
            + " to each backup",
        "backup-location",
        "create",
        "x",
        "--provider",
        "s3",
        "--bucket",
        "backups",
        "--default");
    assertUsage(
        "stele: --lock-mode Compliance needs --min-retention, such as --min-retention 30d",
        "backup-location",
        "create",
        "x",
        "--provider",
        "s3",
        "--bucket",
        "backups",
        "--lock-mode",
        "Compliance");
    assertUsage(
        "stele: --provider gcp: use s3, filesystem",
        "backup-location",
        "create",
        "x",
        "--provider",
        "gcp",
        "--bucket",
        "backups");
    assertUsage(
        "stele: --provider filesystem needs --config path=DIR, the directory holding the bucket",
        "backup-location",
        "create",
        "x",
        "--provider",
        "filesystem",
        "--bucket",
        "backups");
    assertThat(k8s.list(BackupStorageLocation.class)).isEmpty();

    Cli.Run named =
        k8s.run(
            "backup-location",
            "create",
            "default",
            "--provider",
            "s3",
            "--bucket",
            "backups",
            "--default");
    assertThat(named.exitCode()).as(named.stderr()).isZero();
  }

  @Test
  void getPrintsVelerosColumnsAndWideAddsTheLock() {
    createPrimary();
    BackupStorageLocation bsl = k8s.get(BackupStorageLocation.class, "primary");
    BackupStorageLocationStatus s = new BackupStorageLocationStatus();
    s.phase = LocationPhase.AVAILABLE;
    s.lastValidationTime = "2030-01-02T03:04:05Z";
    s.lock = "compliance/30d";
    s.protection = "compliance 30d";
    s.versioning = "Enabled";
    s.defaultRetention = "none";
    bsl.setStatus(s);
    k8s.updateStatus(bsl);

    Cli.Run run = k8s.run("backup-location", "get");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    List<String> lines = run.stdout().lines().toList();
    assertThat(List.of(lines.get(0).split(" {2,}")))
        .containsExactly(
            "NAME",
            "PROVIDER",
            "BUCKET/PREFIX",
            "PHASE",
            "LAST VALIDATED",
            "ACCESS MODE",
            "DEFAULT");
    assertThat(List.of(lines.get(1).split(" {2,}")))
        .containsExactly(
            "primary",
            "s3",
            "backups/cluster-a",
            "Available",
            Format.apiTime("2030-01-02T03:04:05Z"),
            "ReadWrite",
            "false");

    Cli.Run wide = k8s.run("backup-location", "get", "-o", "wide");
    List<String> wideLines = wide.stdout().lines().toList();
    assertThat(List.of(wideLines.get(0).split(" {2,}")))
        .endsWith("DEFAULT", "PROTECTION", "LOCK", "VERSIONING", "BUCKET RULE", "MESSAGE");
    assertThat(List.of(wideLines.get(1).split(" {2,}")))
        .endsWith("false", "compliance 30d", "compliance/30d", "Enabled", "none");

    Cli.Run json = k8s.run("backup-location", "get", "primary", "-o", "json");
    assertThat(json.stdout()).contains("\"kind\" : \"BackupStorageLocation\"");
  }

  @Test
  void setChangesWhatMayChangeAndRefusesWhereItIs() {
    createPrimary();

    Cli.Run run =
        k8s.run(
            "backup-location",
            "set",
            "primary",
            "--credential",
            "cloud2=creds",
            "--config",
            "s3Url=https://rgw2.example",
            "--access-mode",
            "readonly");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.stdout())
        .isEqualTo(
            "Backup storage location \"primary\" updated: config, credential, access-mode.\n");
    BackupStorageLocationSpec spec = k8s.get(BackupStorageLocation.class, "primary").getSpec();
    assertThat(spec.credential.getName()).isEqualTo("cloud2");
    assertThat(spec.config)
        .containsEntry("s3Url", "https://rgw2.example")
        .containsEntry("region", "us-east-1");
    assertThat(spec.accessMode).isEqualTo("ReadOnly");
    assertThat(spec.objectLock.mode).isEqualTo("Compliance");

    assertUsage(
        "stele: a location's provider, bucket and prefix say where its repositories are and"
            + " cannot change: create another location",
        "backup-location",
        "set",
        "primary",
        "--bucket",
        "other");
    assertThat(k8s.get(BackupStorageLocation.class, "primary").getSpec().objectStorage.bucket)
        .isEqualTo("backups");
    Cli.Run missing = k8s.run("backup-location", "set", "nope", "--access-mode", "ReadOnly");
    assertThat(missing.exitCode()).isEqualTo(ExitCode.NOT_FOUND);
  }

  @Test
  void setSendsAMergePatchOfTheSpecThatAStatusWriteCannotConflictWith() throws Exception {
    createPrimary();
    BackupStorageLocation bsl = k8s.get(BackupStorageLocation.class, "primary");
    BackupStorageLocationStatus s = new BackupStorageLocationStatus();
    s.phase = LocationPhase.AVAILABLE;
    bsl.setStatus(s);
    k8s.updateStatus(bsl);

    Cli.Run run = k8s.run("backup-location", "set", "primary", "--access-mode", "ReadOnly");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    RecordedRequest patch = server.getLastRequest();
    assertThat(patch.getMethod()).isEqualTo("PATCH");
    assertThat(patch.getHeader("Content-Type")).startsWith("application/merge-patch+json");
    BackupStorageLocation after = k8s.get(BackupStorageLocation.class, "primary");
    assertThat(after.getSpec().accessMode).isEqualTo("ReadOnly");
    assertThat(after.getStatus().phase).isEqualTo(LocationPhase.AVAILABLE);
  }

  @Test
  void deleteSaysTheRepositoriesAndBackupsStayAndDeletesOnlyTheLocation() {
    createPrimary();
    k8s.repository("primary", "primary");
    k8s.repository("team-a", "primary");
    BackupStatus s = ClusterFixture.status(RunPhase.COMPLETED);
    s.repository = "team-a";
    k8s.backup("nightly", null, s);
    BackupSpec toPrimary = new BackupSpec();
    toPrimary.storageLocation = "primary";
    k8s.backup("running", toPrimary, null);
    k8s.backup("elsewhere", null, null);

    Cli.Run unconfirmed = k8s.run("backup-location", "delete", "primary");
    assertThat(unconfirmed.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(k8s.get(BackupStorageLocation.class, "primary")).isNotNull();

    Cli.Run run = k8s.run("backup-location", "delete", "primary", "--confirm");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.stdout())
        .isEqualTo(
            "Backup storage location \"primary\" deleted. Nothing in bucket backups was deleted:"
                + " its repositories primary, team-a and their 2 backups stay, unusable until a"
                + " location named primary exists again.\n");
    assertThat(k8s.get(BackupStorageLocation.class, "primary")).isNull();
    assertThat(k8s.list(BackupStorageLocationRepository.class)).hasSize(2);
  }

  @Test
  void repositoryGetPrintsPhaseSnapshotsAndMaintenance() {
    BackupStorageLocationRepository r = k8s.repository("primary", "primary");
    r.getMetadata().setLabels(Map.of(SteleApi.DEFAULT_REPOSITORY_LABEL, "true"));
    r = client.resource(r).update();
    var s = new BackupStorageLocationRepositoryStatus();
    s.phase = RepositoryPhase.READY;
    s.snapshots = 12;
    s.packs = 40;
    s.packBytes = 3L * 1024 * 1024;
    s.lock = "compliance/30d";
    s.url = "s3://backups/cluster-a/repositories/primary";
    s.lastMaintenanceTime = "2030-01-02T03:04:05Z";
    r.setStatus(s);
    k8s.updateStatus(r);
    k8s.repository("fresh", "primary");

    Cli.Run run = k8s.run("repository", "get");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    List<String> lines = run.stdout().lines().toList();
    assertThat(List.of(lines.get(0).split(" {2,}")))
        .containsExactly("NAME", "LOCATION", "PHASE", "SNAPSHOTS", "LAST MAINTENANCE");
    assertThat(List.of(lines.get(1).split(" {2,}")))
        .containsExactly("fresh", "primary", "New", "-", "never");
    assertThat(List.of(lines.get(2).split(" {2,}")))
        .containsExactly(
            "primary", "primary", "Ready", "12", Format.apiTime("2030-01-02T03:04:05Z"));

    Cli.Run wide = k8s.run("repository", "get", "primary", "-o", "wide");
    assertThat(List.of(wide.stdout().lines().toList().get(1).split(" {2,}")))
        .containsExactly(
            "primary",
            "primary",
            "Ready",
            "12",
            Format.apiTime("2030-01-02T03:04:05Z"),
            "true",
            "compliance/30d",
            "40",
            "3.00 MiB",
            "never",
            "s3://backups/cluster-a/repositories/primary");
    Cli.Run yaml = k8s.run("repository", "get", "primary", "-o", "yaml");
    assertThat(yaml.stdout()).contains("kind: \"BackupStorageLocationRepository\"");
    Cli.Run missing = k8s.run("repository", "get", "nope");
    assertThat(missing.exitCode()).isEqualTo(ExitCode.NOT_FOUND);
  }

  private void assertUsage(String line, String... args) {
    Cli.Run run = k8s.run(args);
    assertThat(run.exitCode())
        .as(String.join(" ", args) + ": " + run.stderr())
        .isEqualTo(ExitCode.USAGE);
    assertThat(run.errorLines()).containsExactly(line);
  }
}
