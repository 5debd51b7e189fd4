package dev.stele.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.cli.Cli;
import dev.stele.cli.ExitCode;
import dev.stele.cli.Format;
import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.DeleteBackupRequest;
import dev.stele.k8s.api.DeleteBackupRequestSpec;
import dev.stele.k8s.api.DeleteBackupRequestStatus;
import dev.stele.k8s.api.DeletionPhase;
import dev.stele.k8s.api.PodRef;
import dev.stele.k8s.api.PodVolumePhase;
import dev.stele.k8s.api.PodVolumeRestore;
import dev.stele.k8s.api.PodVolumeRestoreSpec;
import dev.stele.k8s.api.PodVolumeStatus;
import dev.stele.k8s.api.Restore;
import dev.stele.k8s.api.RestoreSpec;
import dev.stele.k8s.api.RestoreStatus;
import dev.stele.k8s.api.RunPhase;
import dev.stele.k8s.api.Schedule;
import dev.stele.k8s.api.SchedulePhase;
import dev.stele.k8s.api.ScheduleSpec;
import dev.stele.k8s.api.ScheduleStatus;
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
 * {@code stele restore create|get|describe} and {@code stele schedule create|get} against fabric8's
 * CRUD mock API server, reached through a kubeconfig file; the test writes statuses as the operator
 * would.
 */
@EnableKubernetesMockClient(crud = true)
class RestoreScheduleCommandsTest {
  KubernetesClient client;
  @TempDir Path dir;
  ClusterFixture k8s;

  @BeforeEach
  void setUp() throws IOException {
    k8s = new ClusterFixture(client, dir);
  }

  @Test
  void restoreCreateMakesARestoreWithTheSpecTheOptionsDescribe() {
    k8s.backup("nightly", null, ClusterFixture.status(RunPhase.COMPLETED));

    Cli.Run run =
        k8s.run(
            "restore",
            "create",
            "back",
            "--from-backup",
            "nightly",
            "--namespace-mappings",
            "prod:staging,db:db-copy",
            "--include-namespaces",
            "prod,db",
            "--exclude-namespaces",
            "kube-system",
            "--include-resources",
            "configmaps,deployments.apps",
            "--exclude-resources",
            "secrets",
            "--existing-resource-policy",
            "update",
            "--restore-volumes",
            "false",
            "--selector",
            "app=web");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.stdout())
        .contains("Restore request \"back\" submitted to namespace stele.")
        .contains("stele restore describe back");
    RestoreSpec spec = k8s.get(Restore.class, "back").getSpec();
    assertThat(spec.backupName).isEqualTo("nightly");
    assertThat(spec.namespaceMapping).isEqualTo(Map.of("prod", "staging", "db", "db-copy"));
    assertThat(spec.includedNamespaces).containsExactly("prod", "db");
    assertThat(spec.excludedNamespaces).containsExactly("kube-system");
    assertThat(spec.includedResources).containsExactly("configmaps", "deployments.apps");
    assertThat(spec.excludedResources).containsExactly("secrets");
    assertThat(spec.existingResourcePolicy).isEqualTo("update");
    assertThat(spec.restorePVs).isFalse();
    assertThat(spec.labelSelector.getMatchLabels()).isEqualTo(Map.of("app", "web"));
  }

  @Test
  void restoreCreateNamesTheRestoreAfterTheBackupAndTheTime() {
    k8s.backup("nightly", null, ClusterFixture.status(RunPhase.PARTIALLY_FAILED));
    String before = stamp();

    Cli.Run run = k8s.run("restore", "create", "--from-backup", "nightly");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    List<Restore> restores = k8s.list(Restore.class);
    assertThat(restores).hasSize(1);
    String name = restores.get(0).getMetadata().getName();
    assertThat(name).matches("nightly-\\d{14}");
    assertThat(name.substring("nightly-".length())).isBetween(before, stamp());
    assertThat(restores.get(0).getSpec().existingResourcePolicy).isNull();
    assertThat(restores.get(0).getSpec().restorePVs).isNull();
  }

  private static String stamp() {
    return java.time.format.DateTimeFormatter.ofPattern("yyyyMMddHHmmss")
        .withZone(java.time.ZoneOffset.UTC)
        .format(Instant.now());
  }

  @Test
  void restoreCreateRefusesBadInputAndUnusableBackupsAndCreatesNothing() {
    k8s.backup("nightly", null, ClusterFixture.status(RunPhase.COMPLETED));
    k8s.backup("running", null, ClusterFixture.status(RunPhase.IN_PROGRESS));
    var failed = ClusterFixture.status(RunPhase.FAILED);
    failed.message = "boom";
    k8s.backup("broken", null, failed);

    assertRefused(
        ExitCode.USAGE,
        "stele: --namespace-mappings a: write OLD:NEW pairs separated by commas, such as"
            + " prod:staging",
        "restore",
        "create",
        "--from-backup",
        "nightly",
        "--namespace-mappings",
        "a");
    assertRefused(
        ExitCode.USAGE,
        "stele: --namespace-mappings: namespace a is mapped twice",
        "restore",
        "create",
        "--from-backup",
        "nightly",
        "--namespace-mappings",
        "a:b,a:c");
    assertRefused(
        ExitCode.USAGE,
        "stele: --existing-resource-policy replace: use none or update",
        "restore",
        "create",
        "--from-backup",
        "nightly",
        "--existing-resource-policy",
        "replace");
    assertRefused(
        ExitCode.NOT_FOUND,
        "stele: backup ghost does not exist in namespace stele",
        "restore",
        "create",
        "--from-backup",
        "ghost");
    assertRefused(
        ExitCode.ERROR,
        "stele: backup running is InProgress: restore it once it is Completed or"
            + " PartiallyFailed",
        "restore",
        "create",
        "--from-backup",
        "running");
    assertRefused(
        ExitCode.ERROR,
        "stele: backup broken failed: it holds nothing to restore",
        "restore",
        "create",
        "--from-backup",
        "broken");
    Cli.Run noBackup = k8s.run("restore", "create", "x");
    assertThat(noBackup.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(noBackup.errorLines()).hasSize(1);
    assertThat(noBackup.stderr()).contains("--from-backup");
    assertThat(k8s.list(Restore.class)).isEmpty();
  }

  void deleteRequest(String name, String backup, DeleteBackupRequestStatus status) {
    var r = new DeleteBackupRequest();
    r.setMetadata(new ObjectMetaBuilder().withName(name).build());
    r.setSpec(new DeleteBackupRequestSpec());
    r.getSpec().backupName = backup;
    r = k8s.create(r);
    if (status != null) {
      r.setStatus(status);
      k8s.updateStatus(r);
    }
  }

  @Test
  void restoreCreateSaysWhenTheBackupIsOrWasDeleted() throws Exception {
    k8s.backup("nightly", null, ClusterFixture.status(RunPhase.COMPLETED));
    deleteRequest("delete-nightly", "nightly", null);
    var done = new DeleteBackupRequestStatus();
    done.phase = DeletionPhase.PROCESSED;
    done.tombstones = List.of("tombstones/" + "ab".repeat(32));
    deleteRequest("delete-old", "old", done);
    // A request that failed deleted nothing: the backup is restorable, and one that is gone is
    // simply missing.
    var failed = new DeleteBackupRequestStatus();
    failed.phase = DeletionPhase.PROCESSED;
    failed.errors = List.of("repository default: Connection reset");
    deleteRequest("delete-ghost", "ghost", failed);

    assertRefused(
        ExitCode.ERROR,
        "stele: backup nightly is being deleted by DeleteBackupRequest delete-nightly: it cannot"
            + " be restored",
        "restore",
        "create",
        "--from-backup",
        "nightly");
    assertRefused(
        ExitCode.NOT_FOUND,
        "stele: backup old does not exist in namespace stele: it was deleted by"
            + " DeleteBackupRequest delete-old",
        "restore",
        "create",
        "--from-backup",
        "old");
    assertRefused(
        ExitCode.NOT_FOUND,
        "stele: backup ghost does not exist in namespace stele",
        "restore",
        "create",
        "--from-backup",
        "ghost");

    // Deleted in another cluster before sync ran here: the operator's FailedValidation is printed.
    k8s.backup("synced", null, ClusterFixture.status(RunPhase.COMPLETED));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    CompletableFuture<Cli.Run> run =
        CompletableFuture.supplyAsync(
            () ->
                k8s.run(
                    out,
                    "restore",
                    "create",
                    "r2",
                    "--from-backup",
                    "synced",
                    "--wait",
                    "--wait-interval",
                    "20ms"));
    Restore r = Await.until("restore r2 created", () -> k8s.get(Restore.class, "r2"), x -> true);
    RestoreStatus s = new RestoreStatus();
    s.phase = RunPhase.FAILED_VALIDATION;
    s.message = "backup synced was deleted from repository default: its manifest was tombstoned";
    r.setStatus(s);
    k8s.updateStatus(r);
    Cli.Run refused = run.get(10, TimeUnit.SECONDS);
    assertThat(refused.exitCode()).isEqualTo(ExitCode.ERROR);
    assertThat(refused.errorLines())
        .containsExactly(
            "stele: restore r2 failed validation: backup synced was deleted from repository"
                + " default: its manifest was tombstoned");
  }

  @Test
  void restoreWithoutASubcommandIsStillTheSnapshotRestore() {
    Cli.Run none = k8s.cli.run("restore");
    assertThat(none.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(none.errorLines())
        .containsExactly(
            "stele: restore needs SNAPSHOT[:PATH] and --target DIR, or a subcommand (see 'stele"
                + " restore --help')");
    Cli.Run noTarget = k8s.cli.run("restore", "latest");
    assertThat(noTarget.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(noTarget.errorLines())
        .containsExactly("stele: restore needs --target DIR, the directory to restore into");
    Cli.Run help = k8s.cli.run("restore", "--help");
    assertThat(help.stdout()).contains("--target").contains("create").contains("describe");
  }

  @Test
  void restoreWaitEndsWithTheRestoresPhase() throws Exception {
    k8s.backup("nightly", null, ClusterFixture.status(RunPhase.COMPLETED));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    CompletableFuture<Cli.Run> run =
        CompletableFuture.supplyAsync(
            () ->
                k8s.run(
                    out,
                    "restore",
                    "create",
                    "r1",
                    "--from-backup",
                    "nightly",
                    "--wait",
                    "--wait-interval",
                    "20ms"));
    Restore r = Await.until("restore r1 created", () -> k8s.get(Restore.class, "r1"), x -> true);
    ClusterFixture.awaitLine(out, "  New");
    assertThat(run).isNotDone();
    RestoreStatus s = new RestoreStatus();
    s.phase = RunPhase.PARTIALLY_FAILED;
    s.message = "1 object could not be created";
    r.setStatus(s);
    k8s.updateStatus(r);

    Cli.Run done = run.get(10, TimeUnit.SECONDS);
    assertThat(done.exitCode()).isEqualTo(ExitCode.WARNINGS);
    assertThat(done.stdout()).contains("Restore r1 finished with status PartiallyFailed.");
  }

  @Test
  void restoreGetAndDescribePrintTheStatus() {
    RestoreSpec spec = new RestoreSpec();
    spec.backupName = "nightly";
    spec.namespaceMapping = Map.of("prod", "staging");
    spec.existingResourcePolicy = "update";
    Restore r = new Restore();
    r.setMetadata(new ObjectMetaBuilder().withName("back").build());
    r.setSpec(spec);
    r = k8s.create(r);
    RestoreStatus s = new RestoreStatus();
    s.phase = RunPhase.COMPLETED;
    s.itemsRestored = 9;
    s.itemsSkipped = 2;
    s.warnings = 2;
    s.errors = 0;
    s.startTimestamp = "2030-01-02T03:04:05Z";
    s.completionTimestamp = "2030-01-02T03:06:00Z";
    s.resultsSnapshotID = "aa".repeat(32);
    s.volumes = 1;
    s.volumesCompleted = 1;
    s.volumesFailed = 0;
    r.setStatus(s);
    r = k8s.updateStatus(r);
    var pvrSpec = new PodVolumeRestoreSpec();
    pvrSpec.restoreName = "back";
    pvrSpec.restoreUID = r.getMetadata().getUid();
    pvrSpec.pod = new PodRef("staging", "web-0", "u1");
    pvrSpec.volume = "data";
    pvrSpec.snapshotID = "bb".repeat(32);
    var pvr = new PodVolumeRestore();
    pvr.setMetadata(new ObjectMetaBuilder().withName("back-web-0-data").build());
    pvr.setSpec(pvrSpec);
    pvr = k8s.create(pvr);
    var pvs = new PodVolumeStatus();
    pvs.phase = PodVolumePhase.COMPLETED;
    pvs.bytesDone = 2048L;
    pvs.bytesTotal = 2048L;
    pvr.setStatus(pvs);
    k8s.updateStatus(pvr);

    Cli.Run get = k8s.run("restore", "get");
    assertThat(get.exitCode()).as(get.stderr()).isZero();
    List<String> row = List.of(get.stdout().lines().toList().get(1).split(" {2,}"));
    assertThat(row)
        .containsExactly(
            "back",
            "nightly",
            "Completed",
            Format.apiTime(s.startTimestamp),
            Format.apiTime(s.completionTimestamp),
            "0",
            "2",
            Format.apiTime(r.getMetadata().getCreationTimestamp()));

    Cli.Run describe = k8s.run("restore", "describe", "back");
    assertThat(describe.exitCode()).as(describe.stderr()).isZero();
    assertThat(describe.stdout().lines())
        .contains(
            "Phase:  Completed",
            "Backup:  nightly",
            "Namespace mappings:        prod:staging",
            "Existing resource policy:  update",
            "Restore volumes:           true",
            "Items restored:           9",
            "Items skipped (existed):  2",
            "Results snapshot:         " + s.resultsSnapshotID,
            "Volumes (1 selected, 1 completed, 0 failed):");
    assertThat(describe.stdout())
        .containsPattern("staging/web-0/data +Completed +2.00 KiB +bbbbbbbb");

    Cli.Run missing = k8s.run("restore", "describe", "nope");
    assertThat(missing.exitCode()).isEqualTo(ExitCode.NOT_FOUND);
    assertThat(missing.errorLines())
        .containsExactly("stele: restore nope does not exist in namespace stele");
  }

  @Test
  void scheduleCreateMakesAScheduleWithABackupTemplate() {
    Cli.Run run =
        k8s.run(
            "schedule",
            "create",
            "daily",
            "--schedule",
            "0 3 * * *",
            "--include-namespaces",
            "app",
            "--ttl",
            "168h",
            "--selector",
            "backup=yes",
            "--paused");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.stdout()).contains("Schedule \"daily\" created in namespace stele, paused.");
    ScheduleSpec spec = k8s.get(Schedule.class, "daily").getSpec();
    assertThat(spec.schedule).isEqualTo("0 3 * * *");
    assertThat(spec.paused).isTrue();
    assertThat(spec.template.includedNamespaces).containsExactly("app");
    assertThat(spec.template.ttl).isEqualTo("168h");
    assertThat(spec.template.labelSelector.getMatchLabels()).isEqualTo(Map.of("backup", "yes"));

    Cli.Run macro = k8s.run("schedule", "create", "hourly", "--schedule", "@hourly");
    assertThat(macro.exitCode()).as(macro.stderr()).isZero();
    assertThat(k8s.get(Schedule.class, "hourly").getSpec().paused).isNull();
  }

  @Test
  void scheduleCreateRefusesABadExpressionAndCreatesNothing() {
    for (String cron : List.of("0 3 * *", "every day", "@sometimes", "0 3 * * * *")) {
      Cli.Run run = k8s.run("schedule", "create", "s", "--schedule", cron);
      assertThat(run.exitCode()).as(cron).isEqualTo(ExitCode.USAGE);
      assertThat(run.errorLines()).as(cron).hasSize(1);
      assertThat(run.stderr())
          .startsWith("stele: --schedule '" + cron + "' is not a cron expression (five fields:");
    }
    Cli.Run ttl = k8s.run("schedule", "create", "s", "--schedule", "@daily", "--ttl", "forever");
    assertThat(ttl.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(k8s.list(Schedule.class)).isEmpty();
  }

  @Test
  void scheduleGetPrintsTheStatus() {
    ScheduleSpec spec = new ScheduleSpec();
    spec.schedule = "0 3 * * *";
    spec.template = new dev.stele.k8s.api.BackupSpec();
    spec.template.ttl = "168h";
    Schedule sch = new Schedule();
    sch.setMetadata(new ObjectMetaBuilder().withName("daily").build());
    sch.setSpec(spec);
    sch = k8s.create(sch);
    ScheduleStatus st = new ScheduleStatus();
    st.phase = SchedulePhase.ENABLED;
    Instant now = Instant.now();
    st.lastBackup = now.minus(Duration.ofHours(5)).minusSeconds(30).toString();
    st.nextBackup = now.plus(Duration.ofHours(19)).plusSeconds(30).toString();
    st.lastBackupName = "daily-20300101030000";
    sch.setStatus(st);
    k8s.updateStatus(sch);

    Cli.Run run = k8s.run("schedule", "get");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    List<String> lines = run.stdout().lines().toList();
    assertThat(List.of(lines.get(0).split(" {2,}")))
        .containsExactly(
            "NAME",
            "STATUS",
            "CREATED",
            "SCHEDULE",
            "TTL",
            "LAST BACKUP",
            "NEXT BACKUP",
            "SELECTOR",
            "PAUSED");
    List<String> row = List.of(lines.get(1).split(" {2,}"));
    assertThat(row.get(0)).isEqualTo("daily");
    assertThat(row.get(1)).isEqualTo("Enabled");
    assertThat(row.subList(3, 9))
        .containsExactly("0 3 * * *", "168h", "5h ago", "in 19h", "<none>", "false");

    Cli.Run json = k8s.run("schedule", "get", "daily", "-o", "json");
    assertThat(json.stdout()).contains("\"kind\" : \"Schedule\"").contains("\"lastBackupName\"");
  }

  private void assertRefused(int code, String line, String... args) {
    Cli.Run run = k8s.run(args);
    assertThat(run.exitCode()).as(String.join(" ", args) + ": " + run.stderr()).isEqualTo(code);
    assertThat(run.errorLines()).containsExactly(line);
    assertThat(k8s.list(Restore.class)).isEmpty();
    assertThat(k8s.list(Backup.class)).hasSizeGreaterThan(0);
  }
}
