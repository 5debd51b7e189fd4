package dev.stele.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stele.cli.Cli;
import dev.stele.cli.ExitCode;
import dev.stele.cli.Format;
import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupSpec;
import dev.stele.k8s.api.BackupStatus;
import dev.stele.k8s.api.BackupStorageLocation;
import dev.stele.k8s.api.BackupStorageLocationStatus;
import dev.stele.k8s.api.DeleteBackupRequest;
import dev.stele.k8s.api.LocationPhase;
import dev.stele.k8s.api.PodRef;
import dev.stele.k8s.api.PodVolumeBackup;
import dev.stele.k8s.api.PodVolumeBackupSpec;
import dev.stele.k8s.api.PodVolumePhase;
import dev.stele.k8s.api.PodVolumeStatus;
import dev.stele.k8s.api.RunPhase;
import dev.stele.testing.Await;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stele backup create|get|describe|delete} against fabric8's CRUD mock API server, reached
 * through a kubeconfig file. The test plays the operator: it writes statuses and PodVolumeBackups
 * and checks that the commands create exactly the resources asked for and print what statuses hold.
 * {@code backup logs} is in {@link BackupLogsCommandTest}.
 */
@EnableKubernetesMockClient(crud = true)
class BackupCommandsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  KubernetesClient client;
  @TempDir Path dir;
  ClusterFixture k8s;

  @BeforeEach
  void setUp() throws IOException {
    k8s = new ClusterFixture(client, dir);
  }

  @Test
  void createMakesABackupWithTheSpecTheOptionsDescribe() throws IOException {
    k8s.location("primary", dir);
    k8s.repository("team-a", "primary");

    Cli.Run run =
        k8s.run(
            "backup",
            "create",
            "nightly",
            "--include-namespaces",
            "app,db",
            "--exclude-namespaces",
            "kube-system",
            "--include-resources",
            "configmaps,deployments.apps",
            "--exclude-resources",
            "secrets",
            "--selector",
            "app=web,tier=front",
            "--ttl",
            "36h",
            "--storage-location",
            "primary",
            "--repository",
            "team-a",
            "--default-volumes-to-fs-backup",
            "--include-cluster-resources",
            "false");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.stdout())
        .contains("Backup request \"nightly\" submitted to namespace stele.")
        .contains("stele backup describe nightly");
    BackupSpec spec = k8s.get(Backup.class, "nightly").getSpec();
    assertThat(spec.includedNamespaces).containsExactly("app", "db");
    assertThat(spec.excludedNamespaces).containsExactly("kube-system");
    assertThat(spec.includedResources).containsExactly("configmaps", "deployments.apps");
    assertThat(spec.excludedResources).containsExactly("secrets");
    assertThat(spec.labelSelector.getMatchLabels())
        .isEqualTo(Map.of("app", "web", "tier", "front"));
    assertThat(spec.ttl).isEqualTo("36h");
    assertThat(spec.storageLocation).isEqualTo("primary");
    assertThat(spec.repository).isEqualTo("team-a");
    assertThat(spec.defaultVolumesToFsBackup).isTrue();
    assertThat(spec.includeClusterResources).isFalse();
  }

  @Test
  void clusterScopedResourcesAreChosenByTypeButNotBothWays() {
    Cli.Run run =
        k8s.run(
            "backup",
            "create",
            "typed",
            "--include-cluster-scoped-resources",
            "storageclasses.storage.k8s.io,clusterroles.rbac.authorization.k8s.io",
            "--exclude-cluster-scoped-resources",
            "persistentvolumes");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    BackupSpec spec = k8s.get(Backup.class, "typed").getSpec();
    assertThat(spec.includedClusterScopedResources)
        .containsExactly("storageclasses.storage.k8s.io", "clusterroles.rbac.authorization.k8s.io");
    assertThat(spec.excludedClusterScopedResources).containsExactly("persistentvolumes");
    assertThat(spec.includeClusterResources).isNull();

    Cli.Run both =
        k8s.run(
            "backup",
            "create",
            "both",
            "--include-cluster-resources",
            "true",
            "--exclude-cluster-scoped-resources",
            "persistentvolumes");
    assertThat(both.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(both.errorLines())
        .containsExactly(
            "stele: --include-cluster-resources cannot be given with"
                + " --include/--exclude-cluster-scoped-resources: use one or the other");
    assertThat(k8s.list(Backup.class))
        .extracting(b -> b.getMetadata().getName())
        .containsExactly("typed");
  }

  @Test
  void createWithoutOptionsLeavesEveryDefaultToTheOperator() {
    Cli.Run run = k8s.run("backup", "create", "plain");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    BackupSpec spec = k8s.get(Backup.class, "plain").getSpec();
    assertThat(spec.includedNamespaces).isNull();
    assertThat(spec.ttl).isNull();
    assertThat(spec.repository).isNull();
    assertThat(spec.includeClusterResources).isNull();
    assertThat(spec.defaultVolumesToFsBackup).isNull();
  }

  @Test
  void createGoesToTheNamespaceGivenWithDashN() {
    Cli.Run run = k8s.run("backup", "create", "elsewhere", "-n", "backups");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.stdout()).contains("stele backup describe elsewhere -n backups");
    assertThat(client.resources(Backup.class).inNamespace("backups").withName("elsewhere").get())
        .isNotNull();
    assertThat(k8s.list(Backup.class)).isEmpty();
  }

  @Test
  void invalidInputIsOneLineAndCreatesNothing() {
    assertRefused(
        ExitCode.USAGE,
        "stele: --ttl 3x: not a duration (write it like 720h, 30d or 1h30m)",
        "backup",
        "create",
        "b",
        "--ttl",
        "3x");
    assertRefused(
        ExitCode.USAGE,
        "stele: --ttl 0s: must be longer than zero",
        "backup",
        "create",
        "b",
        "--ttl",
        "0s");
    assertRefused(
        ExitCode.USAGE,
        "stele: --selector app in (web: unbalanced parentheses in 'app in (web'",
        "backup",
        "create",
        "b",
        "--selector",
        "app in (web");
    assertRefused(
        ExitCode.USAGE,
        "stele: --include-namespaces Bad_NS: not a namespace name",
        "backup",
        "create",
        "b",
        "--include-namespaces",
        "Bad_NS");
    assertRefused(
        ExitCode.USAGE,
        "stele: backup name 'Nightly' is not a valid name: lower-case letters, digits, '-' and"
            + " '.', starting and ending with a letter or digit",
        "backup",
        "create",
        "Nightly");
    assertRefused(
        ExitCode.NOT_FOUND,
        "stele: repository missing does not exist in namespace stele",
        "backup",
        "create",
        "b",
        "--repository",
        "missing");
    assertRefused(
        ExitCode.NOT_FOUND,
        "stele: storage location missing does not exist in namespace stele",
        "backup",
        "create",
        "b",
        "--storage-location",
        "missing");
    Cli.Run bool = k8s.run("backup", "create", "b", "--include-cluster-resources", "maybe");
    assertThat(bool.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(bool.errorLines()).hasSize(1);
    assertThat(k8s.list(Backup.class)).isEmpty();
  }

  @Test
  void aBackupThatExistsIsNotReplaced() {
    k8s.backup("nightly", null, ClusterFixture.status(RunPhase.COMPLETED));

    Cli.Run run = k8s.run("backup", "create", "nightly", "--ttl", "1h");

    assertThat(run.exitCode()).isEqualTo(ExitCode.ERROR);
    assertThat(run.errorLines())
        .containsExactly("stele: backup nightly already exists in namespace stele");
    assertThat(k8s.get(Backup.class, "nightly").getSpec().ttl).isNull();
    assertThat(k8s.get(Backup.class, "nightly").getStatus().phase).isEqualTo(RunPhase.COMPLETED);
  }

  @Test
  void getPrintsOneLinePerBackupFromItsStatus() {
    Instant now = Instant.now();
    BackupStatus done = ClusterFixture.status(RunPhase.COMPLETED);
    done.repository = "team-a";
    done.expiration = now.plus(Duration.ofDays(30)).minusSeconds(60).toString();
    k8s.backup("a-done", null, done);
    BackupStatus partly = ClusterFixture.status(RunPhase.PARTIALLY_FAILED);
    partly.errors = 2;
    partly.warnings = 1;
    partly.repository = "team-b";
    partly.expiration = now.minusSeconds(10).toString();
    k8s.backup("b-partly", null, partly);
    BackupSpec spec = new BackupSpec();
    spec.repository = "team-c";
    k8s.backup("c-new", spec, null);

    Cli.Run run = k8s.run("backup", "get");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    List<List<String>> rows = run.stdout().lines().map(l -> List.of(l.split(" {2,}"))).toList();
    assertThat(rows.get(0))
        .containsExactly(
            "NAME", "STATUS", "ERRORS", "WARNINGS", "CREATED", "EXPIRES", "REPOSITORY");
    assertThat(rows).hasSize(4);
    assertThat(rows.get(1)).element(0).isEqualTo("a-done");
    assertThat(rows.get(1).subList(1, 4)).containsExactly("Completed", "0", "0");
    assertThat(rows.get(1).subList(5, 7)).containsExactly("29d", "team-a");
    assertThat(rows.get(2).subList(0, 4)).containsExactly("b-partly", "PartiallyFailed", "2", "1");
    assertThat(rows.get(2).subList(5, 7)).containsExactly("expired", "team-b");
    assertThat(rows.get(3).subList(0, 2)).containsExactly("c-new", "New");
    assertThat(rows.get(3).subList(5, 7)).containsExactly("-", "team-c");
    // CREATED is the creation time the server recorded, in local time
    String created =
        Format.apiTime(k8s.get(Backup.class, "a-done").getMetadata().getCreationTimestamp());
    assertThat(rows.get(1).get(4)).isEqualTo(created);

    Cli.Run named = k8s.run("backup", "get", "b-partly");
    assertThat(named.stdout().lines()).hasSize(2);
    assertThat(named.stdout()).contains("b-partly").doesNotContain("a-done");
  }

  @Test
  void getAsJsonOrYamlPrintsTheResources() throws IOException {
    BackupStatus done = ClusterFixture.status(RunPhase.COMPLETED);
    done.snapshotID = "ab".repeat(32);
    k8s.backup("one", null, done);
    k8s.backup("two", null, ClusterFixture.status(RunPhase.IN_PROGRESS));

    Cli.Run all = k8s.run("backup", "get", "-o", "json");
    assertThat(all.exitCode()).as(all.stderr()).isZero();
    JsonNode list = JSON.readTree(all.stdout());
    assertThat(list.get("kind").asText()).isEqualTo("List");
    assertThat(list.get("items")).hasSize(2);
    assertThat(list.get("items").get(0).get("status").get("snapshotID").asText())
        .isEqualTo("ab".repeat(32));

    Cli.Run one = k8s.run("backup", "get", "two", "-o", "yaml");
    assertThat(one.exitCode()).as(one.stderr()).isZero();
    assertThat(one.stdout())
        .contains("kind: \"Backup\"")
        .contains("name: \"two\"")
        .contains("phase: \"InProgress\"")
        .doesNotContain("\"one\"");

    Cli.Run bad = k8s.run("backup", "get", "-o", "xml");
    assertThat(bad.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(bad.errorLines()).containsExactly("stele: -o xml: use table, wide, json or yaml");
  }

  @Test
  void getOfUnknownBackupsNamesThemAndPrintsNothing() {
    k8s.backup("known", null, null);

    Cli.Run run = k8s.run("backup", "get", "known", "ghost", "phantom");

    assertThat(run.exitCode()).isEqualTo(ExitCode.NOT_FOUND);
    assertThat(run.stdout()).isEmpty();
    assertThat(run.errorLines())
        .containsExactly("stele: no backup ghost, phantom in namespace stele");
  }

  @Test
  void describeShowsStatusFiltersVolumesAndRetention() throws IOException {
    BackupStorageLocation bsl = k8s.location("primary", dir);
    BackupStorageLocationStatus ls = new BackupStorageLocationStatus();
    ls.phase = LocationPhase.AVAILABLE;
    ls.lock = "compliance/30d";
    ls.versioning = "Enabled";
    ls.defaultRetention = "compliance/30d";
    bsl.setStatus(ls);
    k8s.updateStatus(bsl);
    k8s.repository("team-a", "primary");
    BackupSpec spec = new BackupSpec();
    spec.includedNamespaces = List.of("app");
    spec.excludedResources = List.of("secrets");
    spec.ttl = "72h";
    BackupStatus s = ClusterFixture.status(RunPhase.PARTIALLY_FAILED);
    s.message = "12 items; errors: listing jobs.batch in app: forbidden";
    s.repository = "team-a";
    s.items = 12;
    s.errors = 1;
    s.warnings = 0;
    s.startTimestamp = "2030-01-02T03:04:05Z";
    s.completionTimestamp = "2030-01-02T03:05:00Z";
    s.expiration = Instant.now().plus(Duration.ofDays(3)).plusSeconds(60).toString();
    s.snapshotID = "cd".repeat(32);
    s.manifest = "snapshots/" + "cd".repeat(32);
    s.resourcesSnapshotID = "ef".repeat(32);
    s.volumes = 2;
    s.volumesCompleted = 1;
    s.volumesFailed = 1;
    Backup backup = k8s.backup("nightly", spec, s);
    volume(backup, "web-0", "data", PodVolumePhase.COMPLETED, 1536L, null, "12".repeat(32));
    volume(
        backup, "web-1", "data", PodVolumePhase.FAILED, null, "volume directory not found", null);
    Backup other = k8s.backup("other", null, null);
    volume(other, "db-0", "pgdata", PodVolumePhase.COMPLETED, 99L, null, "34".repeat(32));

    Cli.Run run = k8s.run("backup", "describe", "nightly");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    String out = run.stdout();
    assertThat(out.lines())
        .contains(
            "Name:         nightly",
            "Namespace:    stele",
            "Phase:    PartiallyFailed",
            "Message:  12 items; errors: listing jobs.batch in app: forbidden",
            "Errors:    1",
            "Warnings:  0",
            "Namespaces:",
            "  Included:  app",
            "  Excluded:  <none>",
            "  Excluded:        secrets",
            "  Cluster-scoped:  included",
            "Repository:                    team-a",
            "Storage location:              primary",
            "TTL:                           72h",
            "Started:    " + Format.apiTime(s.startTimestamp),
            "Completed:  " + Format.apiTime(s.completionTimestamp),
            "Items backed up:  12",
            "Snapshot:            " + s.snapshotID,
            "Manifest:            " + s.manifest,
            "Resources snapshot:  " + s.resourcesSnapshotID,
            "Retention:",
            "  Expires:   " + Format.apiTime(s.expiration) + " (in 3d)",
            "  Location:  primary",
            "  Lock:      compliance/30d (versioning Enabled, bucket default rule compliance/30d)",
            "Volumes (2 selected, 1 completed, 1 failed):");
    List<String> volumes = out.lines().dropWhile(l -> !l.startsWith("Volumes (")).skip(1).toList();
    assertThat(volumes).hasSize(3);
    assertThat(volumes.get(0)).matches("  VOLUME +PHASE +BYTES +SNAPSHOT +MESSAGE");
    assertThat(volumes.get(1)).matches("  app/web-0/data +Completed +1.50 KiB +12121212");
    assertThat(volumes.get(2))
        .matches("  app/web-1/data +Failed +- +- +volume directory not found");
    assertThat(out).doesNotContain("pgdata");
  }

  @Test
  void describeOfABackupTheOperatorHasNotSeenSaysSo() {
    k8s.backup("fresh", null, null);

    Cli.Run run = k8s.run("backup", "describe", "fresh");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.stdout().lines())
        .contains(
            "Phase:  New",
            "Repository:                    <the location's default>",
            "TTL:                           720h (default)",
            "  Location:  default (does not exist)",
            "  Lock:      unknown: the location has not been validated",
            "Volumes:  <none>");
  }

  @Test
  void deleteWithoutATerminalNeedsConfirmAndCreatesNothing() {
    k8s.backup("old", null, ClusterFixture.status(RunPhase.COMPLETED));

    Cli.Run run = k8s.run("backup", "delete", "old");

    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(run.errorLines())
        .containsExactly(
            "stele: not deleting without confirmation: give --confirm (no terminal to ask on)");
    assertThat(k8s.list(DeleteBackupRequest.class)).isEmpty();
  }

  @Test
  void deleteAsksAndOnlyAYesCreatesARequest() {
    k8s.backup("old", null, ClusterFixture.status(RunPhase.COMPLETED));
    k8s.cli.terminal = true;

    k8s.cli.typed.add("n");
    Cli.Run no = k8s.run("backup", "delete", "old");
    assertThat(no.exitCode()).isZero();
    assertThat(no.stdout()).contains("Nothing deleted.");
    assertThat(k8s.list(DeleteBackupRequest.class)).isEmpty();

    k8s.cli.typed.add("");
    assertThat(k8s.run("backup", "delete", "old").exitCode()).isZero();
    assertThat(k8s.list(DeleteBackupRequest.class)).isEmpty();

    k8s.cli.typed.add("y");
    Cli.Run yes = k8s.run("backup", "delete", "old");
    assertThat(yes.exitCode()).as(yes.stderr()).isZero();
    assertThat(yes.stdout())
        .contains("Request to delete backup \"old\" submitted")
        .contains("data stays in the bucket until its retention allows")
        .contains("maintenance reclaims it");
    List<DeleteBackupRequest> requests = k8s.list(DeleteBackupRequest.class);
    assertThat(requests).hasSize(1);
    assertThat(requests.get(0).getSpec().backupName).isEqualTo("old");
    assertThat(requests.get(0).getMetadata().getName()).startsWith("old-");
    assertThat(requests.get(0).getMetadata().getLabels())
        .containsEntry("stele.dev/backup-name", "old");
    // the Backup itself is the operator's to remove
    assertThat(k8s.get(Backup.class, "old")).isNotNull();
  }

  @Test
  void deleteWithConfirmCreatesOneRequestPerBackupAndChecksEveryNameFirst() {
    k8s.backup("a", null, ClusterFixture.status(RunPhase.COMPLETED));
    k8s.backup("b", null, ClusterFixture.status(RunPhase.FAILED));

    Cli.Run typo = k8s.run("backup", "delete", "a", "c", "--confirm");
    assertThat(typo.exitCode()).isEqualTo(ExitCode.NOT_FOUND);
    assertThat(typo.errorLines()).containsExactly("stele: no backup c in namespace stele");
    assertThat(k8s.list(DeleteBackupRequest.class)).isEmpty();

    Cli.Run run = k8s.run("backup", "delete", "a", "b", "--confirm");
    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(k8s.list(DeleteBackupRequest.class))
        .extracting(r -> r.getSpec().backupName)
        .containsExactlyInAnyOrder("a", "b");
  }

  @Test
  void waitReturnsWhenTheOperatorFinishesTheBackup() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    CompletableFuture<Cli.Run> run =
        CompletableFuture.supplyAsync(
            () -> k8s.run(out, "backup", "create", "waited", "--wait", "--wait-interval", "20ms"));
    Backup b = awaitCreated("waited");
    ClusterFixture.awaitLine(out, "  New");
    assertThat(run).isNotDone();
    b.setStatus(ClusterFixture.status(RunPhase.IN_PROGRESS));
    b.getStatus().message = "collecting resources";
    b = k8s.updateStatus(b);
    ClusterFixture.awaitLine(out, "  InProgress: collecting resources");
    assertThat(run).isNotDone();
    b.getStatus().phase = RunPhase.COMPLETED;
    b.getStatus().message = "7 items";
    k8s.updateStatus(b);

    Cli.Run done = run.get(10, TimeUnit.SECONDS);
    assertThat(done.exitCode()).as(done.stderr()).isZero();
    assertThat(done.stdout().lines())
        .contains(
            "  New",
            "  InProgress: collecting resources",
            "  Completed: 7 items",
            "Backup waited finished with status Completed. Run 'stele backup describe waited' for"
                + " details.");
  }

  @Test
  void waitExitsNonZeroOnPartiallyFailedAndFailed() throws Exception {
    CompletableFuture<Cli.Run> partly =
        CompletableFuture.supplyAsync(
            () -> k8s.run("backup", "create", "partly", "--wait", "--wait-interval", "20ms"));
    Backup p = awaitCreated("partly");
    p.setStatus(ClusterFixture.status(RunPhase.PARTIALLY_FAILED));
    p.getStatus().message = "3 items; errors: listing jobs.batch";
    k8s.updateStatus(p);
    Cli.Run partlyRun = partly.get(10, TimeUnit.SECONDS);
    assertThat(partlyRun.exitCode()).isEqualTo(ExitCode.WARNINGS);
    assertThat(partlyRun.errorLines())
        .containsExactly(
            "warning: backup partly partially failed: 3 items; errors: listing jobs.batch");

    CompletableFuture<Cli.Run> failed =
        CompletableFuture.supplyAsync(
            () -> k8s.run("backup", "create", "failed", "--wait", "--wait-interval", "20ms"));
    Backup f = awaitCreated("failed");
    f.setStatus(ClusterFixture.status(RunPhase.FAILED));
    f.getStatus().message = "repository x does not exist";
    k8s.updateStatus(f);
    Cli.Run failedRun = failed.get(10, TimeUnit.SECONDS);
    assertThat(failedRun.exitCode()).isEqualTo(ExitCode.ERROR);
    assertThat(failedRun.errorLines())
        .containsExactly("stele: backup failed failed: repository x does not exist");
  }

  @Test
  void waitStopsWhenTheBackupIsDeleted() throws Exception {
    CompletableFuture<Cli.Run> run =
        CompletableFuture.supplyAsync(
            () -> k8s.run("backup", "create", "gone", "--wait", "--wait-interval", "20ms"));
    Backup b = awaitCreated("gone");
    client.resource(b).delete();

    Cli.Run done = run.get(10, TimeUnit.SECONDS);
    assertThat(done.exitCode()).isEqualTo(ExitCode.ERROR);
    assertThat(done.errorLines())
        .containsExactly("stele: backup gone was deleted while waiting for it");
  }

  private Backup awaitCreated(String name) {
    return Await.until("backup " + name + " created", () -> k8s.get(Backup.class, name), b -> true);
  }

  private void volume(
      Backup backup,
      String pod,
      String volume,
      PodVolumePhase phase,
      Long bytes,
      String message,
      String snapshot) {
    var spec = new PodVolumeBackupSpec();
    spec.backupName = backup.getMetadata().getName();
    spec.backupUID = backup.getMetadata().getUid();
    spec.pod = new PodRef("app", pod, "uid-" + pod);
    spec.volume = volume;
    var pvb = new PodVolumeBackup();
    pvb.setMetadata(
        new ObjectMetaBuilder()
            .withName(backup.getMetadata().getName() + "-" + pod + "-" + volume)
            .build());
    pvb.setSpec(spec);
    pvb = k8s.create(pvb);
    var status = new PodVolumeStatus();
    status.phase = phase;
    status.bytesDone = bytes;
    status.message = message;
    status.snapshotID = snapshot;
    pvb.setStatus(status);
    k8s.updateStatus(pvb);
  }

  private void assertRefused(int code, String line, String... args) {
    Cli.Run run = k8s.run(args);
    assertThat(run.exitCode()).as(String.join(" ", args) + ": " + run.stderr()).isEqualTo(code);
    assertThat(run.errorLines()).containsExactly(line);
    assertThat(run.stderr()).doesNotContain("\tat ");
    assertThat(k8s.list(Backup.class)).isEmpty();
  }
}
