package dev.stele.operator;

import static dev.stele.operator.OperatorFixture.NS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.blob.FilesystemBlobStore;
import dev.stele.k8s.api.PodRef;
import dev.stele.k8s.api.PodVolumeBackup;
import dev.stele.k8s.api.PodVolumeBackupSpec;
import dev.stele.k8s.api.PodVolumePhase;
import dev.stele.k8s.api.PodVolumeRestore;
import dev.stele.k8s.api.PodVolumeRestoreSpec;
import dev.stele.k8s.api.PodVolumeStatus;
import dev.stele.k8s.api.SteleApi;
import dev.stele.operator.kube.Operators;
import dev.stele.operator.kube.Settings;
import dev.stele.operator.nodeagent.NodeSettings;
import dev.stele.operator.nodeagent.PodVolumeBackupReconciler;
import dev.stele.operator.nodeagent.PodVolumeRestoreReconciler;
import dev.stele.operator.nodeagent.VolumeFiles;
import dev.stele.repo.BlobKind;
import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import dev.stele.repo.SnapshotManifest;
import dev.stele.snapshot.FileRestore;
import dev.stele.snapshot.FileRestoreListener;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.testing.Await;
import dev.stele.testing.RandomTree;
import dev.stele.testing.TreeAssert;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.javaoperatorsdk.operator.Operator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The node agent's reconcilers called directly, pass by pass, against the CRUD mock API server: a
 * temporary directory stands in for the kubelet root (pods' volumes under {@code
 * pods/<uid>/volumes/<plugin>/<dir>}), a directory for the bucket, every store audited.
 */
@EnableKubernetesMockClient(crud = true)
class NodeAgentTest {
  static final String APP = "app";
  static KubernetesClient client;

  @TempDir Path base;
  OperatorFixture op;
  Path kubelet;
  PodVolumeBackupReconciler backupsA;
  PodVolumeRestoreReconciler restoresA;
  PodVolumeBackupReconciler backupsB;
  PodVolumeRestoreReconciler restoresB;

  @BeforeEach
  void setUp() throws IOException {
    client.resources(PodVolumeBackup.class).inAnyNamespace().delete();
    client.resources(PodVolumeRestore.class).inAnyNamespace().delete();
    client.resources(dev.stele.k8s.api.BackupStorageLocation.class).inNamespace(NS).delete();
    client
        .resources(dev.stele.k8s.api.BackupStorageLocationRepository.class)
        .inNamespace(NS)
        .delete();
    client.pods().inAnyNamespace().delete();
    client.persistentVolumeClaims().inAnyNamespace().delete();
    client.secrets().inAnyNamespace().delete();
    client.v1().events().inNamespace(NS).delete();
    Files.createDirectories(base.resolve("bucket"));
    op = new OperatorFixture(client);
    op.defaultRepository(OperatorFixture.filesystemLocation(base));

    kubelet = base.resolve("kubelet");
    Settings settings = new Settings(op.time, op.stores, OperatorFixture::cheapKdf);
    var a = new NodeSettings("node-a", kubelet, Duration.ofSeconds(2), Duration.ZERO);
    var b = new NodeSettings("node-b", kubelet, Duration.ofSeconds(2), Duration.ZERO);
    backupsA = new PodVolumeBackupReconciler(client, settings, a);
    restoresA = new PodVolumeRestoreReconciler(client, settings, a);
    backupsB = new PodVolumeBackupReconciler(client, settings, b);
    restoresB = new PodVolumeRestoreReconciler(client, settings, b);
  }

  @AfterEach
  void writeOnce() {
    op.assertWriteOnce();
  }

  static Volume emptyDir(String name) {
    return new VolumeBuilder().withName(name).withNewEmptyDir().endEmptyDir().build();
  }

  static Volume claim(String name, String claim) {
    return new VolumeBuilder()
        .withName(name)
        .withNewPersistentVolumeClaim()
        .withClaimName(claim)
        .endPersistentVolumeClaim()
        .build();
  }

  Pod pod(String name, String node, Volume... volumes) {
    return client
        .pods()
        .inNamespace(APP)
        .resource(
            new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(APP)
                .withUid(UUID.randomUUID().toString())
                .endMetadata()
                .withNewSpec()
                .withNodeName(node)
                .addNewContainer()
                .withName("app")
                .withImage("busybox")
                .endContainer()
                .withVolumes(volumes)
                .endSpec()
                .build())
        .create();
  }

  /** The directory the kubelet would mount a volume at. */
  Path volumeDir(Pod pod, String plugin, String dir) {
    return kubelet.resolve("pods/" + pod.getMetadata().getUid() + "/volumes/" + plugin + "/" + dir);
  }

  PodVolumeBackup pvb(String name, Pod pod, String volume, String node) {
    var spec = new PodVolumeBackupSpec();
    spec.node = node;
    spec.pod = new PodRef(APP, pod.getMetadata().getName(), pod.getMetadata().getUid());
    spec.volume = volume;
    spec.repository = "default";
    spec.backupName = "nightly";
    spec.backupUID = "backup-uid-1";
    spec.expiration = op.clock.instant().plus(Duration.ofDays(30)).toString();
    var pvb = new PodVolumeBackup();
    pvb.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(NS).build());
    pvb.setSpec(spec);
    return client.resource(pvb).create();
  }

  PodVolumeBackup pvb(String name) {
    return client.resources(PodVolumeBackup.class).inNamespace(NS).withName(name).get();
  }

  PodVolumeRestore pvr(String name) {
    return client.resources(PodVolumeRestore.class).inNamespace(NS).withName(name).get();
  }

  Repository openRepository() throws IOException {
    String password = op.secretValue("default-repository-password", "password");
    return Repository.open(
        new FilesystemBlobStore(base.resolve("bucket/velero/repositories/default"), op.clock),
        password.toCharArray(),
        op.clock);
  }

  static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  @Test
  void aPodVolumeBecomesALabelledSnapshotThatRestoresByteForByte() throws IOException {
    Pod pod = pod("web", "node-a", emptyDir("data"), claim("db", "db-claim"));
    Path data = volumeDir(pod, "kubernetes.io~empty-dir", "data");
    new RandomTree(7).files(40).writeTo(data);
    Path expected = new RandomTree(7).files(40).writeTo(base.resolve("expected"));
    // A marker left by an earlier restore of this volume is not backed up.
    Files.createDirectories(data.resolve(".stele"));
    Files.writeString(data.resolve(".stele/old-restore"), "x");

    PodVolumeBackup request = pvb("web-data", pod, "data", "node-a");
    assertThat(backupsA.reconcile(request)).isNull();
    PodVolumeStatus s = pvb("web-data").getStatus();
    assertThat(s.phase).as(s.message).isEqualTo(PodVolumePhase.COMPLETED);
    assertThat(s.path).isEqualTo(data.toString());
    assertThat(s.snapshotID).hasSize(64);
    assertThat(s.bytesDone).isPositive().isEqualTo(s.bytesTotal);
    assertThat(s.startTimestamp).isNotNull();
    assertThat(s.completionTimestamp).isNotNull();
    assertThat(op.eventReasons("web-data")).containsExactly("InProgress", "Completed");

    try (Repository repo = openRepository()) {
      SnapshotManifest m = new SnapshotCatalog(repo).read(Id.parse(s.snapshotID));
      assertThat(m.tags()).containsExactly(SteleApi.POD_VOLUME_TAG);
      assertThat(m.labels())
          .containsEntry(SteleApi.PART_OF_LABEL, "backup-uid-1")
          .containsEntry(SteleApi.BACKUP_NAME_LABEL, "nightly")
          .containsEntry(SteleApi.POD_NAMESPACE_LABEL, APP)
          .containsEntry(SteleApi.POD_NAME_LABEL, "web")
          .containsEntry(SteleApi.VOLUME_LABEL, "data");
      assertThat(m.host()).isEqualTo("app/web");
      assertThat(m.paths()).containsExactly(data.toString());
      assertThat(m.expires()).isEqualTo(Instant.parse(request.getSpec().expiration));
      assertThat(m.stats().bytes()).isEqualTo(s.bytesTotal);
      Path restored = base.resolve("restored");
      new FileRestore(repo, 2, FileRestoreListener.NONE).run(m, m.paths().get(0), restored);
      TreeAssert.assertSameTree(expected, restored);
    }

    // A volume of a bound claim, mounted by a CSI driver: its files are in <pv>/mount.
    client
        .persistentVolumeClaims()
        .inNamespace(APP)
        .resource(
            new PersistentVolumeClaimBuilder()
                .withNewMetadata()
                .withName("db-claim")
                .endMetadata()
                .withNewSpec()
                .withVolumeName("pvc-1234")
                .endSpec()
                .build())
        .create();
    Path db = volumeDir(pod, "kubernetes.io~csi", "pvc-1234/mount");
    Files.createDirectories(db);
    Files.writeString(db.resolve("table"), "rows\n");
    backupsA.reconcile(pvb("web-db", pod, "db", "node-a"));
    PodVolumeStatus dbStatus = pvb("web-db").getStatus();
    assertThat(dbStatus.phase).as(dbStatus.message).isEqualTo(PodVolumePhase.COMPLETED);
    assertThat(dbStatus.path).isEqualTo(db.toString());
    assertThat(dbStatus.bytesDone).isEqualTo(5);

    // Completed is final: later passes write nothing.
    assertThat(backupsA.reconcile(pvb("web-data"))).isNull();
    assertThat(pvb("web-data").getStatus().snapshotID).isEqualTo(s.snapshotID);
    try (Repository repo = openRepository()) {
      assertThat(repo.list(BlobKind.SNAPSHOT)).hasSize(2);
    }
  }

  @Test
  void aRequestForAnotherNodeIsLeftAlone() throws IOException {
    Pod pod = pod("web", "node-b", emptyDir("data"));
    Files.createDirectories(volumeDir(pod, "kubernetes.io~empty-dir", "data"));
    PodVolumeBackup request = pvb("web-data", pod, "data", "node-b");
    String version = request.getMetadata().getResourceVersion();

    assertThat(backupsA.reconcile(request)).isNull();
    PodVolumeBackup after = pvb("web-data");
    assertThat(after.getStatus()).isNull();
    assertThat(after.getMetadata().getResourceVersion()).isEqualTo(version);
    assertThat(op.eventReasons("web-data")).isEmpty();
    try (Repository repo = openRepository()) {
      assertThat(repo.list(BlobKind.SNAPSHOT)).isEmpty();
    }
    // Its own node's agent serves it.
    backupsB.reconcile(request);
    assertThat(pvb("web-data").getStatus().phase).isEqualTo(PodVolumePhase.COMPLETED);
  }

  @Test
  void whatCannotBeFoundFailsWithOneLine() throws IOException {
    Pod pod = pod("web", "node-a", emptyDir("data"));
    backupsA.reconcile(pvb("no-dir", pod, "data", "node-a"));
    PodVolumeStatus s = pvb("no-dir").getStatus();
    assertThat(s.phase).isEqualTo(PodVolumePhase.FAILED);
    assertThat(s.message)
        .contains(
            kubelet.resolve("pods/" + pod.getMetadata().getUid() + "/volumes/*/data").toString())
        .doesNotContain("\n");
    assertThat(s.completionTimestamp).isNotNull();
    assertThat(op.eventReasons("no-dir")).containsExactly("Failed");

    backupsA.reconcile(pvb("no-volume", pod, "logs", "node-a"));
    assertThat(pvb("no-volume").getStatus().message).isEqualTo("pod app/web has no volume logs");

    Pod gone = pod("gone", "node-a", emptyDir("data"));
    PodVolumeBackup orphan = pvb("no-pod", gone, "data", "node-a");
    client.pods().inNamespace(APP).withName("gone").delete();
    backupsA.reconcile(orphan);
    assertThat(pvb("no-pod").getStatus().message).isEqualTo("pod app/gone does not exist");

    try (Repository repo = openRepository()) {
      assertThat(repo.list(BlobKind.SNAPSHOT)).isEmpty();
    }
  }

  @Test
  void aRequestLeftInProgressIsCompletedFromItsSnapshotOrRunAgain() throws IOException {
    Pod pod = pod("web", "node-a", emptyDir("data"), emptyDir("cache"));
    new RandomTree(3).files(10).writeTo(volumeDir(pod, "kubernetes.io~empty-dir", "data"));
    new RandomTree(4).files(10).writeTo(volumeDir(pod, "kubernetes.io~empty-dir", "cache"));
    backupsA.reconcile(pvb("web-data", pod, "data", "node-a"));
    PodVolumeBackup done = pvb("web-data");
    String id = done.getStatus().snapshotID;
    assertThat(id).isNotNull();

    // The agent stopped after the snapshot was written, before its status said so.
    var left = new PodVolumeStatus();
    left.phase = PodVolumePhase.IN_PROGRESS;
    left.startTimestamp = done.getStatus().startTimestamp;
    done.setStatus(left);
    client.resource(done).updateStatus();
    backupsA.reconcile(pvb("web-data"));
    PodVolumeStatus s = pvb("web-data").getStatus();
    assertThat(s.phase).isEqualTo(PodVolumePhase.COMPLETED);
    assertThat(s.snapshotID).isEqualTo(id);
    assertThat(s.message).contains("before the agent restarted");

    // The agent stopped during the backup: nothing was written, so it runs again.
    PodVolumeBackup cache = pvb("web-cache", pod, "cache", "node-a");
    cache.setStatus(left);
    client.resource(cache).updateStatus();
    backupsA.reconcile(pvb("web-cache"));
    PodVolumeStatus c = pvb("web-cache").getStatus();
    assertThat(c.phase).as(c.message).isEqualTo(PodVolumePhase.COMPLETED);
    assertThat(c.snapshotID).isNotEqualTo(id);

    try (Repository repo = openRepository()) {
      assertThat(repo.list(BlobKind.SNAPSHOT)).hasSize(2);
    }
  }

  @Test
  void aRestoreWaitsForItsPodThenFillsTheVolumeAndWritesTheMarker() throws IOException {
    // What was backed up.
    Pod original = pod("web", "node-a", emptyDir("data"));
    new RandomTree(11).files(40).writeTo(volumeDir(original, "kubernetes.io~empty-dir", "data"));
    backupsA.reconcile(pvb("web-data", original, "data", "node-a"));
    String snapshot = pvb("web-data").getStatus().snapshotID;
    assertThat(snapshot).isNotNull();

    // The restored pod, created but not scheduled yet.
    Pod pod = pod("web-restored", null, emptyDir("data"));
    var spec = new PodVolumeRestoreSpec();
    spec.pod = new PodRef(APP, "web-restored", pod.getMetadata().getUid());
    spec.volume = "data";
    spec.repository = "default";
    spec.snapshotID = snapshot;
    spec.restoreName = "back";
    spec.restoreUID = "restore-uid-1";
    var request = new PodVolumeRestore();
    request.setMetadata(
        new ObjectMetaBuilder().withName("web-restored-data").withNamespace(NS).build());
    request.setSpec(spec);
    client.resource(request).create();

    assertThat(restoresA.reconcile(pvr("web-restored-data"))).isEqualTo(Duration.ofSeconds(2));
    assertThat(restoresB.reconcile(pvr("web-restored-data"))).isEqualTo(Duration.ofSeconds(2));
    PodVolumeStatus waiting = pvr("web-restored-data").getStatus();
    assertThat(waiting.phase).isEqualTo(PodVolumePhase.NEW);
    assertThat(waiting.message)
        .isEqualTo("waiting for pod app/web-restored to be scheduled to a node");

    // Scheduled to node-a; the kubelet has not created the volume's directory yet.
    client
        .pods()
        .inNamespace(APP)
        .withName("web-restored")
        .edit(
            p -> {
              p.getSpec().setNodeName("node-a");
              return p;
            });
    assertThat(restoresB.reconcile(pvr("web-restored-data"))).isNull();
    assertThat(restoresA.reconcile(pvr("web-restored-data"))).isNotNull();
    assertThat(pvr("web-restored-data").getStatus().message)
        .startsWith("waiting: no directory ")
        .contains("/volumes/*/data");

    Path data = volumeDir(pod, "kubernetes.io~empty-dir", "data");
    Files.createDirectories(data);
    assertThat(restoresA.reconcile(pvr("web-restored-data"))).isNull();
    PodVolumeStatus s = pvr("web-restored-data").getStatus();
    assertThat(s.phase).as(s.message).isEqualTo(PodVolumePhase.COMPLETED);
    assertThat(s.path).isEqualTo(data.toString());
    assertThat(s.bytesDone).isPositive().isEqualTo(s.bytesTotal);
    assertThat(op.eventReasons("web-restored-data")).containsExactly("InProgress", "Completed");
    assertThat(s.snapshotID).isEqualTo(snapshot);

    Path marker = VolumeFiles.marker(data, "restore-uid-1");
    assertThat(marker).isEqualTo(data.resolve(".stele/restore-uid-1"));
    assertThat(Files.readString(marker)).isEqualTo(snapshot + "\n");

    // An agent that stopped after the marker, before the status said so: completed from it.
    PodVolumeRestore left = pvr("web-restored-data");
    var inProgress = new PodVolumeStatus();
    inProgress.phase = PodVolumePhase.IN_PROGRESS;
    left.setStatus(inProgress);
    client.resource(left).updateStatus();
    Instant before = Files.getLastModifiedTime(marker).toInstant();
    assertThat(restoresA.reconcile(pvr("web-restored-data"))).isNull();
    assertThat(pvr("web-restored-data").getStatus().phase).isEqualTo(PodVolumePhase.COMPLETED);
    assertThat(pvr("web-restored-data").getStatus().message)
        .contains("marker")
        .contains("before the agent restarted");
    assertThat(Files.getLastModifiedTime(marker).toInstant()).isEqualTo(before);
    deleteTree(data.resolve(".stele"));
    TreeAssert.assertSameTree(new RandomTree(11).files(40).writeTo(base.resolve("expected")), data);

    // Done: a later pass, by either agent, changes nothing.
    String version = pvr("web-restored-data").getMetadata().getResourceVersion();
    assertThat(restoresA.reconcile(pvr("web-restored-data"))).isNull();
    assertThat(restoresB.reconcile(pvr("web-restored-data"))).isNull();
    assertThat(pvr("web-restored-data").getMetadata().getResourceVersion()).isEqualTo(version);
  }

  /** A user's request through the repository server, as the server creates it. */
  PodVolumeRestore userRequest(
      String name, Pod pod, String snapshot, Boolean overwrite, String... paths) {
    var spec = new PodVolumeRestoreSpec();
    spec.pod = new PodRef(APP, pod.getMetadata().getName(), pod.getMetadata().getUid());
    spec.volume = "data";
    spec.repository = "default";
    spec.snapshotID = snapshot;
    spec.paths = List.of(paths);
    spec.requestedBy = "alice";
    spec.overwrite = overwrite;
    var request = new PodVolumeRestore();
    request.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(NS).build());
    request.setSpec(spec);
    return client.resource(request).create();
  }

  @Test
  void aUsersRequestWaitsForApprovalThenRestoresOnlyItsPathKeepingWhatIsThere() throws IOException {
    Pod pod = pod("web", "node-a", emptyDir("data"));
    Path data = volumeDir(pod, "kubernetes.io~empty-dir", "data");
    byte[] big = new byte[300_000];
    new Random(5).nextBytes(big);
    Files.createDirectories(data.resolve("keep/sub"));
    Files.write(data.resolve("keep/sub/big.bin"), big);
    Files.writeString(data.resolve("keep/a.txt"), "as backed up");
    Files.writeString(data.resolve("other.txt"), "as backed up");
    backupsA.reconcile(pvb("web-data", pod, "data", "node-a"));
    String snapshot = pvb("web-data").getStatus().snapshotID;
    assertThat(snapshot).isNotNull();
    // Since the backup: a file lost, one changed in the path, one changed outside it.
    Files.delete(data.resolve("keep/sub/big.bin"));
    Files.writeString(data.resolve("keep/a.txt"), "mine");
    Files.writeString(data.resolve("other.txt"), "changed");

    Operator operator = Operators.create(client, false, NS, List.of(restoresA), null);
    Operators.start(operator, client);
    try {
      userRequest("web-data-alice", pod, snapshot, null, "/keep");
      Await.until(
          "AwaitingApproval",
          () -> pvr("web-data-alice"),
          r -> r.getStatus() != null && r.getStatus().phase == PodVolumePhase.AWAITING_APPROVAL);
      assertThat(pvr("web-data-alice").getStatus().message)
          .isEqualTo(
              "awaiting approval of alice's request: an admin sets the annotation"
                  + " stele.dev/approved-by");
      assertThat(data.resolve("keep/sub/big.bin")).doesNotExist();

      // The admin approves, as kubectl annotate does: metadata only, the generation unchanged.
      client
          .resources(PodVolumeRestore.class)
          .inNamespace(NS)
          .withName("web-data-alice")
          .edit(
              r -> {
                r.getMetadata().setAnnotations(Map.of(SteleApi.APPROVED_BY_ANNOTATION, "root"));
                return r;
              });
      Await.until(
          "Completed",
          () -> pvr("web-data-alice"),
          r -> r.getStatus() != null && r.getStatus().phase.isFinal());
    } finally {
      operator.stop();
    }
    PodVolumeStatus s = pvr("web-data-alice").getStatus();
    assertThat(s.phase).as(s.message).isEqualTo(PodVolumePhase.COMPLETED);
    assertThat(s.message)
        .isEqualTo(
            "/keep restored into "
                + data
                + " for alice, approved by root: 1 files, 300000 bytes; 1 already there kept");
    assertThat(Files.readAllBytes(data.resolve("keep/sub/big.bin"))).isEqualTo(big);
    assertThat(data.resolve("keep/a.txt")).hasContent("mine");
    assertThat(data.resolve("other.txt")).hasContent("changed");
    assertThat(data.resolve(".stele")).doesNotExist();

    // With overwrite, the file there is replaced by the snapshot's.
    PodVolumeRestore again = userRequest("web-data-again", pod, snapshot, true, "/keep/a.txt");
    again.getMetadata().setAnnotations(Map.of(SteleApi.APPROVED_BY_ANNOTATION, "root"));
    client.resource(again).update();
    assertThat(restoresA.reconcile(pvr("web-data-again"))).isNull();
    assertThat(pvr("web-data-again").getStatus().phase).isEqualTo(PodVolumePhase.COMPLETED);
    assertThat(data.resolve("keep/a.txt")).hasContent("as backed up");

    // A path that leaves the volume fails, approved or not, and writes nothing.
    PodVolumeRestore out = userRequest("web-data-out", pod, snapshot, true, "/keep/../../x");
    out.getMetadata().setAnnotations(Map.of(SteleApi.APPROVED_BY_ANNOTATION, "root"));
    client.resource(out).update();
    assertThat(restoresA.reconcile(pvr("web-data-out"))).isNull();
    assertThat(pvr("web-data-out").getStatus().phase).isEqualTo(PodVolumePhase.FAILED);
    assertThat(pvr("web-data-out").getStatus().message)
        .isEqualTo("spec.paths: /keep/../../x is not an absolute path inside the volume");
  }

  @Test
  void aRestoreOfAnUnknownSnapshotFailsAndLeavesNoMarker() throws IOException {
    Pod pod = pod("web", "node-a", emptyDir("data"));
    Path data = volumeDir(pod, "kubernetes.io~empty-dir", "data");
    Files.createDirectories(data);
    var spec = new PodVolumeRestoreSpec();
    spec.pod = new PodRef(APP, "web", pod.getMetadata().getUid());
    spec.volume = "data";
    spec.repository = "default";
    spec.snapshotID = "ab".repeat(32);
    spec.restoreUID = "restore-uid-2";
    var request = new PodVolumeRestore();
    request.setMetadata(new ObjectMetaBuilder().withName("lost").withNamespace(NS).build());
    request.setSpec(spec);
    client.resource(request).create();

    assertThat(restoresA.reconcile(pvr("lost"))).isNull();
    PodVolumeStatus s = pvr("lost").getStatus();
    assertThat(s.phase).isEqualTo(PodVolumePhase.FAILED);
    assertThat(s.message)
        .isEqualTo("snapshot " + "ab".repeat(32) + " does not exist in repository default");
    assertThat(VolumeFiles.marker(data, "restore-uid-2")).doesNotExist();
    assertThat(op.eventReasons("lost")).containsExactly("Failed");
  }

  @Test
  void aRepositoryNotReadyIsWaitedForAndAMissingOneFails() throws IOException {
    Pod pod = pod("web", "node-a", emptyDir("data"));
    Files.createDirectories(volumeDir(pod, "kubernetes.io~empty-dir", "data"));
    op.bslr("later", "missing-location");
    op.reconcileRepository("later");
    PodVolumeBackup request = pvb("patient", pod, "data", "node-a");
    request.getSpec().repository = "later";
    client.resource(request).update();
    assertThat(backupsA.reconcile(pvb("patient"))).isEqualTo(Settings.DEFAULT_RECHECK);
    PodVolumeStatus s = pvb("patient").getStatus();
    assertThat(s.phase).isEqualTo(PodVolumePhase.NEW);
    assertThat(s.message).startsWith("waiting for repository later to be Ready");

    PodVolumeBackup typo = pvb("typo", pod, "data", "node-a");
    typo.getSpec().repository = "nowhere";
    client.resource(typo).update();
    assertThat(backupsA.reconcile(pvb("typo"))).isNull();
    assertThat(pvb("typo").getStatus().phase).isEqualTo(PodVolumePhase.FAILED);
    assertThat(pvb("typo").getStatus().message)
        .isEqualTo("BackupStorageLocationRepository nowhere does not exist in " + NS);
  }
}
