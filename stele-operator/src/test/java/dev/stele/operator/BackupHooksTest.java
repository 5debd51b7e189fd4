package dev.stele.operator;

import static dev.stele.operator.OperatorFixture.NS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.blob.FilesystemBlobStore;
import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupHooks;
import dev.stele.k8s.api.BackupSpec;
import dev.stele.k8s.api.ExecHook;
import dev.stele.k8s.api.PodVolumeBackup;
import dev.stele.k8s.api.PodVolumePhase;
import dev.stele.k8s.api.PodVolumeStatus;
import dev.stele.k8s.api.RunPhase;
import dev.stele.k8s.api.SteleApi;
import dev.stele.k8s.testing.ApiServer;
import dev.stele.k8s.testing.ExecResult;
import dev.stele.repo.Repository;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Backup hooks, run through {@code pods/exec} against the test API server: what a command does in a
 * container is the exec handler's, which also sees, when it runs, how far the backup has got.
 */
class BackupHooksTest {
  final ApiServer server = new ApiServer();
  final KubernetesClient client = server.client();

  /** Each command run: "pod/container argv | PodVolumeBackups then: phases". */
  final List<String> ran = new CopyOnWriteArrayList<>();

  @TempDir Path base;
  OperatorFixture op;

  @BeforeEach
  void setUp() throws IOException {
    Files.createDirectories(base.resolve("bucket"));
    for (String ns : List.of(NS, "app")) {
      client
          .namespaces()
          .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
          .create();
    }
    op = new OperatorFixture(client);
    op.defaultRepository(OperatorFixture.filesystemLocation(base));
    answer(ExecResult.ok("ok"));
  }

  @AfterEach
  void stop() {
    op.assertWriteOnce();
    client.close();
    server.close();
  }

  /** Every command prints what {@code result} says, after recording itself and the volumes. */
  void answer(ExecResult result) {
    server.onExec(
        (pod, container, argv) -> {
          ran.add(
              pod.getMetadata().getName()
                  + "/"
                  + container
                  + " "
                  + argv
                  + " | volumes: "
                  + client
                      .resources(PodVolumeBackup.class)
                      .inNamespace(NS)
                      .list()
                      .getItems()
                      .stream()
                      .map(
                          p ->
                              p.getStatus() == null || p.getStatus().phase == null
                                  ? "New"
                                  : p.getStatus().phase.value())
                      .toList());
          return result;
        });
  }

  /** A running database pod in namespace app with volume data (backed up) and the annotations. */
  void pod(String name, Map<String, String> annotations) {
    Pod pod =
        new PodBuilder()
            .withNewMetadata()
            .withName(name)
            .withNamespace("app")
            .addToLabels("app", "db")
            .addToAnnotations(SteleApi.BACKUP_VOLUMES_ANNOTATION, "data")
            .addToAnnotations(annotations)
            .endMetadata()
            .withNewSpec()
            .withNodeName("node-1")
            .addNewContainer()
            .withName("db")
            .withImage("postgres:17")
            .endContainer()
            .addNewContainer()
            .withName("exporter")
            .withImage("exporter:1")
            .endContainer()
            .addNewVolume()
            .withName("data")
            .withNewEmptyDir()
            .endEmptyDir()
            .endVolume()
            .endSpec()
            .withNewStatus()
            .withPhase("Running")
            .endStatus()
            .build();
    client.resource(pod).create();
  }

  BackupSpec app() {
    var spec = new BackupSpec();
    spec.includedNamespaces = List.of("app");
    spec.ttl = "24h";
    return spec;
  }

  List<PodVolumeBackup> requests() {
    return client.resources(PodVolumeBackup.class).inNamespace(NS).list().getItems();
  }

  /** What a node agent does: the volume (an empty directory here) becomes a snapshot. */
  void serveAll() throws IOException {
    Path dir = Files.createDirectories(base.resolve("volume"));
    Files.writeString(dir.resolve("table"), "rows");
    String password = op.secretValue("default-repository-password", "password");
    try (Repository repo =
        Repository.open(
            new FilesystemBlobStore(base.resolve("bucket/velero/repositories/default"), op.clock),
            password.toCharArray(),
            op.clock)) {
      for (PodVolumeBackup pvb : requests()) {
        var spec = pvb.getSpec();
        var options =
            dev.stele.snapshot.FileBackupOptions.defaults(spec.pod.namespace + "/" + spec.pod.name)
                .withTags(List.of(SteleApi.POD_VOLUME_TAG))
                .withLabels(Map.of(SteleApi.PART_OF_LABEL, spec.backupUID))
                .withExpiry(Instant.parse(spec.expiration));
        var result =
            new dev.stele.snapshot.FileBackup(
                    repo, options, dev.stele.snapshot.FileBackupListener.NONE)
                .run(List.of(dir));
        pvb.setStatus(new PodVolumeStatus());
        pvb.getStatus().phase = PodVolumePhase.COMPLETED;
        pvb.getStatus().snapshotID = result.id().hex();
        pvb.getStatus().bytesDone = result.manifest().stats().bytes();
        client.resource(pvb).updateStatus();
      }
    }
  }

  String log(Backup backup) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (BackupRepository repo = BackupRepository.open(client, backup, op.clock)) {
      repo.copy(
          backup.getStatus().snapshotID, BackupRepository.BACKUP_LOG, "the backup's log", out);
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void preHookRunsBeforeTheVolumeIsAskedForAndPostHookAfterItIsBackedUp() throws Exception {
    pod(
        "db",
        Map.of(
            "pre.hook.backup.velero.io/command", "[\"/bin/psql\", \"-c\", \"CHECKPOINT; $X\"]",
            "post.hook.backup.stele.dev/command", "/usr/local/bin/thaw",
            "post.hook.backup.stele.dev/container", "exporter"));
    answer(ExecResult.ok("CHECKPOINT\n"));
    op.backup("nightly", app());

    Backup waiting = op.reconcileBackup("nightly");
    assertThat(waiting.getStatus().phase).isEqualTo(RunPhase.WAITING_FOR_VOLUMES);
    assertThat(ran).containsExactly("db/db [/bin/psql, -c, CHECKPOINT; $X] | volumes: []");
    assertThat(requests()).hasSize(1);

    op.reconcileBackup("nightly"); // the volume is not done yet: no post hook
    assertThat(ran).hasSize(1);
    serveAll();
    Backup done = op.reconcileBackup("nightly");

    assertThat(done.getStatus().phase).as(done.getStatus().message).isEqualTo(RunPhase.COMPLETED);
    assertThat(ran)
        .containsExactly(
            "db/db [/bin/psql, -c, CHECKPOINT; $X] | volumes: []",
            "db/exporter [/usr/local/bin/thaw] | volumes: [Completed]");
    assertThat(done.getStatus().hookStatus.hooksAttempted).isEqualTo(2);
    assertThat(done.getStatus().hookStatus.hooksFailed).isZero();
    String log = log(done);
    assertThat(log)
        .contains(
            "pre hook annotations in pod app/db, container db: [/bin/psql, -c, CHECKPOINT; $X]:"
                + " exit code 0 after ")
        .contains("  stdout: CHECKPOINT")
        .contains("post hook annotations in pod app/db, container exporter: [/usr/local/bin/thaw]");
    // A pass after the end runs nothing again.
    op.reconcileBackup("nightly");
    assertThat(ran).hasSize(2);
  }

  @Test
  void aFailingPreHookLeavesThePodsVolumesOutAndTheBackupPartiallyFailed() throws Exception {
    pod(
        "db",
        Map.of(
            "pre.hook.backup.velero.io/command", "fsfreeze --freeze /data",
            "post.hook.backup.velero.io/command", "thaw"));
    answer(ExecResult.exit(2, "fsfreeze: /data: not a mount point\nmore"));
    op.backup("nightly", app());

    Backup done = op.reconcileBackup("nightly");

    assertThat(ran).containsExactly("db/db [fsfreeze --freeze /data] | volumes: []");
    assertThat(requests()).isEmpty();
    assertThat(done.getStatus().phase).isEqualTo(RunPhase.PARTIALLY_FAILED);
    assertThat(done.getStatus().message)
        .contains(
            "pre hook annotations in pod app/db, container db: exit code 2: fsfreeze: /data: not"
                + " a mount point")
        .contains("volume app/db/data not backed up: the pod's pre hook failed");
    assertThat(done.getStatus().hookStatus.hooksFailed).isEqualTo(1);
    assertThat(op.eventReasons("nightly")).contains("HookFailed", "PartiallyFailed");
    assertThat(log(done)).contains("  stderr: fsfreeze: /data: not a mount point");
  }

  @Test
  void aFailingContinueHookIsAWarningAndTheVolumeIsBackedUp() throws Exception {
    pod(
        "db",
        Map.of(
            "pre.hook.backup.velero.io/command", "flush",
            "pre.hook.backup.velero.io/on-error", "Continue"));
    answer(ExecResult.exit(1, "nothing to flush"));
    op.backup("nightly", app());

    Backup waiting = op.reconcileBackup("nightly");
    assertThat(requests()).hasSize(1);
    serveAll();
    Backup done = op.reconcileBackup("nightly");

    assertThat(done.getStatus().phase).as(done.getStatus().message).isEqualTo(RunPhase.COMPLETED);
    assertThat(waiting.getStatus().warnings).isEqualTo(1);
    assertThat(done.getStatus().message).contains("warnings: pre hook annotations in pod app/db");
    assertThat(done.getStatus().hookStatus.hooksFailed).isEqualTo(1);
  }

  @Test
  void aHookThatOutrunsItsTimeoutFails() throws Exception {
    pod(
        "db",
        Map.of(
            "pre.hook.stele.dev/command", "ignored",
            "pre.hook.backup.stele.dev/command", "[\"slow\"]",
            "pre.hook.backup.stele.dev/timeout", "300ms"));
    answer(ExecResult.ok("late").after(Duration.ofSeconds(20)));
    op.backup("nightly", app());

    long start = System.nanoTime();
    Backup done = op.reconcileBackup("nightly");

    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(15));
    assertThat(done.getStatus().phase).isEqualTo(RunPhase.PARTIALLY_FAILED);
    assertThat(done.getStatus().message).contains("timed out after 300ms");
    assertThat(requests()).isEmpty();
  }

  @Test
  void specHooksRunInThePodsTheySelectUnlessThePodHasItsOwn() throws Exception {
    pod("db", Map.of());
    pod("own", Map.of("pre.hook.backup.velero.io/command", "mine"));
    var hooks = new BackupHooks();
    var resource = new BackupHooks.ResourceHook();
    resource.name = "quiesce";
    resource.includedNamespaces = List.of("app");
    resource.labelSelector = new LabelSelectorBuilder().addToMatchLabels("app", "db").build();
    var exec = new ExecHook();
    exec.container = "exporter";
    exec.command = List.of("/bin/sh", "-c", "echo $HOME > /tmp/x");
    var hook = new BackupHooks.Hook();
    hook.exec = exec;
    resource.pre = List.of(hook);
    hooks.resources = List.of(resource);
    BackupSpec spec = app();
    spec.hooks = hooks;
    op.backup("nightly", spec);

    op.reconcileBackup("nightly");

    assertThat(ran)
        .containsExactlyInAnyOrder(
            "db/exporter [/bin/sh, -c, echo $HOME > /tmp/x] | volumes: []",
            "own/db [mine] | volumes: []");
  }

  @Test
  void postHooksAnOperatorStartedBeforeItStoppedAreNotRunAgain() throws Exception {
    pod(
        "db",
        Map.of(
            "pre.hook.backup.velero.io/command", "freeze",
            "post.hook.backup.velero.io/command", "thaw"));
    op.backup("nightly", app());
    op.reconcileBackup("nightly");
    serveAll();
    // As an operator leaves it that stopped right after it began the post hooks.
    Backup waiting = op.backup("nightly");
    waiting.getStatus().postHooksStarted = true;
    client.resource(waiting).updateStatus();

    Backup done = op.reconcileBackup("nightly");

    assertThat(ran).containsExactly("db/db [freeze] | volumes: []");
    assertThat(done.getStatus().phase).isEqualTo(RunPhase.COMPLETED);
    assertThat(done.getStatus().message)
        .contains("the post hooks of app/db were started by an operator that stopped");
  }

  @Test
  void aBackupThatFailsAfterItsPreHooksStillRunsTheirPostHooks() throws Exception {
    pod(
        "db",
        Map.of(
            "pre.hook.backup.velero.io/command", "freeze",
            "post.hook.backup.velero.io/command", "thaw"));
    op.backup("nightly", app());
    op.refuse = "snapshots/"; // the resources part cannot be written

    Backup failed = op.reconcileBackup("nightly");

    assertThat(failed.getStatus().phase).isEqualTo(RunPhase.FAILED);
    assertThat(failed.getStatus().message)
        .contains("storage refused")
        .contains("the post hooks of app/db ran");
    assertThat(ran).containsExactly("db/db [freeze] | volumes: []", "db/db [thaw] | volumes: []");
    assertThat(failed.getStatus().hookStatus.hooksAttempted).isEqualTo(2);
    op.refuse = null;
  }
}
