package dev.stele.operator.restore;

import static dev.stele.operator.restore.RestoreFixture.NS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.k8s.api.PodVolumePhase;
import dev.stele.k8s.api.PodVolumeRestore;
import dev.stele.k8s.api.PodVolumeStatus;
import dev.stele.k8s.api.Restore;
import dev.stele.k8s.api.RestoreSpec;
import dev.stele.k8s.api.RestoreStatus;
import dev.stele.k8s.api.RunPhase;
import dev.stele.k8s.api.SteleApi;
import dev.stele.repo.Repository;
import dev.stele.snapshot.SnapshotCatalog;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Restores of pods whose backup lists volumes: the pods get the wait container, the node agent gets
 * one PodVolumeRestore per volume, and the Restore waits for them (the test plays the node agent by
 * setting their status). The backup is written by {@link BackupFixture} following the backup
 * contract.
 */
@EnableKubernetesMockClient(crud = true)
class RestoreVolumesTest {
  static KubernetesClient client;

  @TempDir Path base;
  RestoreFixture op;
  BackupFixture.Written backup;

  @BeforeEach
  void setUp() throws Exception {
    RestoreOperatorTest.clean(client);
    Files.createDirectories(base.resolve("bucket"));
    op = new RestoreFixture(client, base);
    List<HasMetadata> objects =
        List.of(
            new NamespaceBuilder().withNewMetadata().withName("app-a").endMetadata().build(),
            new PersistentVolumeClaimBuilder()
                .withNewMetadata()
                .withName("db-data")
                .withNamespace("app-a")
                .addToAnnotations("pv.kubernetes.io/bind-completed", "yes")
                .addToAnnotations("pv.kubernetes.io/bound-by-controller", "yes")
                .addToAnnotations("volume.kubernetes.io/selected-node", "node-1")
                .addToAnnotations("team", "db")
                .endMetadata()
                .withNewSpec()
                .withAccessModes("ReadWriteOnce")
                .withVolumeName("pvc-0f00")
                .withNewResources()
                .addToRequests("storage", new Quantity("1Gi"))
                .endResources()
                .endSpec()
                .build(),
            new PodBuilder()
                .withNewMetadata()
                .withName("db")
                .withNamespace("app-a")
                .withOwnerReferences(
                    new OwnerReferenceBuilder()
                        .withApiVersion("apps/v1")
                        .withKind("StatefulSet")
                        .withName("db")
                        .withUid("5ca1ab1e-0000-0000-0000-000000000000")
                        .build())
                .endMetadata()
                .withNewSpec()
                .withNodeName("node-1")
                .addNewInitContainer()
                .withName("setup")
                .withImage("busybox")
                .endInitContainer()
                .addNewContainer()
                .withName("db")
                .withImage("postgres:17")
                .endContainer()
                .addNewVolume()
                .withName("data")
                .withNewPersistentVolumeClaim()
                .withClaimName("db-data")
                .endPersistentVolumeClaim()
                .endVolume()
                .addNewVolume()
                .withName("cache")
                .withNewEmptyDir()
                .endEmptyDir()
                .endVolume()
                .addNewVolume()
                .withName("logs")
                .withNewEmptyDir()
                .endEmptyDir()
                .endVolume()
                .endSpec()
                .build(),
            new PodBuilder()
                .withNewMetadata()
                .withName("plain")
                .withNamespace("app-a")
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("sh")
                .withImage("busybox")
                .endContainer()
                .endSpec()
                .build());
    backup =
        BackupFixture.write(
            op,
            "with-volumes",
            objects,
            List.of(
                new BackupFixture.PodVolume("app-a", "db", "data", "Completed", null),
                new BackupFixture.PodVolume("app-a", "db", "cache", "Completed", null),
                new BackupFixture.PodVolume("app-a", "db", "logs", "Failed", "no space left"),
                new BackupFixture.PodVolume("app-a", "elsewhere", "x", "Completed", null)));
  }

  @AfterEach
  void writeOnce() {
    op.assertWriteOnce();
  }

  static RestoreSpec mapped(String to) {
    var spec = new RestoreSpec();
    spec.backupName = "with-volumes";
    spec.namespaceMapping = Map.of("app-a", to);
    return spec;
  }

  void volumeDone(PodVolumeRestore pvr, PodVolumePhase phase, String message) {
    var status = new PodVolumeStatus();
    status.phase = phase;
    status.message = message;
    pvr.setStatus(status);
    client.resource(pvr).updateStatus();
  }

  Map<String, PodVolumeRestore> byVolume(Restore restore) {
    return op.volumeRequests(restore).stream()
        .collect(Collectors.toMap(p -> p.getSpec().volume, p -> p));
  }

  List<SnapshotCatalog.Entry> results(Restore restore) throws Exception {
    try (Repository repo = op.openRepository()) {
      return op.results(repo, restore);
    }
  }

  RestoreDocument document(Restore restore) throws Exception {
    try (Repository repo = op.openRepository()) {
      var found = op.results(repo, restore);
      assertThat(found).hasSize(1);
      return Results.read(repo, found.get(0).manifest());
    }
  }

  @Test
  void podsGetTheWaitContainerAndOneRequestPerVolumeAndTheRestoreWaitsForThem() throws Exception {
    op.restore("vols", mapped("vol-a"));
    Restore waiting = op.pass("vols");
    RestoreStatus s = waiting.getStatus();
    assertThat(s.phase).as(s.message).isEqualTo(RunPhase.WAITING_FOR_VOLUMES);
    // namespace, claim, two pods
    assertThat(s.itemsRestored).isEqualTo(4);
    assertThat(s.volumes).isEqualTo(2);
    assertThat(s.volumesCompleted).isZero();
    assertThat(s.warnings).isEqualTo(1);
    assertThat(s.message).isEqualTo("waiting for the node agent to fill 2 of 2 pod volumes");
    String uid = waiting.getMetadata().getUid();

    Pod db = client.pods().inNamespace("vol-a").withName("db").get();
    List<Container> init = db.getSpec().getInitContainers();
    assertThat(init).extracting(Container::getName).containsExactly("stele-restore-wait", "setup");
    assertThat(init.get(0).getImage()).isEqualTo(RestoreFixture.IMAGE);
    assertThat(init.get(0).getCommand())
        .containsExactly(
            "stele", "restore-wait", "--restore-uid", uid, "/restores/data", "/restores/cache");
    assertThat(init.get(0).getVolumeMounts())
        .extracting(VolumeMount::getName, VolumeMount::getMountPath)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("data", "/restores/data"),
            org.assertj.core.groups.Tuple.tuple("cache", "/restores/cache"));
    assertThat(db.getSpec().getNodeName()).isNull();
    assertThat(db.getMetadata().getOwnerReferences()).isNullOrEmpty();
    Pod plain = client.pods().inNamespace("vol-a").withName("plain").get();
    assertThat(plain.getSpec().getInitContainers()).isNullOrEmpty();
    var claim = client.persistentVolumeClaims().inNamespace("vol-a").withName("db-data").get();
    assertThat(claim.getSpec().getVolumeName()).isNull();
    assertThat(claim.getMetadata().getAnnotations())
        .containsOnlyKeys("team")
        .containsEntry("team", "db");

    Map<String, PodVolumeRestore> requests = byVolume(waiting);
    assertThat(requests).containsOnlyKeys("data", "cache");
    for (var e : requests.entrySet()) {
      PodVolumeRestore pvr = e.getValue();
      assertThat(pvr.getMetadata().getNamespace()).isEqualTo(NS);
      assertThat(pvr.getMetadata().getLabels())
          .containsEntry(SteleApi.RESTORE_NAME_LABEL, "vols")
          .containsEntry(SteleApi.RESTORE_UID_LABEL, uid);
      assertThat(pvr.getMetadata().getOwnerReferences().get(0).getUid()).isEqualTo(uid);
      assertThat(pvr.getSpec().pod.namespace).isEqualTo("vol-a");
      assertThat(pvr.getSpec().pod.name).isEqualTo("db");
      assertThat(pvr.getSpec().pod.uid).isEqualTo(db.getMetadata().getUid()).isNotNull();
      assertThat(pvr.getSpec().repository).isEqualTo("default");
      assertThat(pvr.getSpec().snapshotID)
          .isEqualTo(backup.volumeSnapshots().get("db/" + e.getKey()));
      assertThat(pvr.getSpec().restoreName).isEqualTo("vols");
      assertThat(pvr.getSpec().restoreUID).isEqualTo(uid);
    }
    assertThat(results(waiting)).isEmpty();

    // Nothing has happened yet: still waiting, still nothing written.
    assertThat(op.pass("vols").getStatus().phase).isEqualTo(RunPhase.WAITING_FOR_VOLUMES);
    volumeDone(requests.get("data"), PodVolumePhase.COMPLETED, null);
    s = op.pass("vols").getStatus();
    assertThat(s.phase).isEqualTo(RunPhase.WAITING_FOR_VOLUMES);
    assertThat(s.volumesCompleted).isEqualTo(1);
    assertThat(s.message).isEqualTo("waiting for the node agent to fill 1 of 2 pod volumes");
    assertThat(results(waiting)).isEmpty();

    volumeDone(requests.get("cache"), PodVolumePhase.COMPLETED, null);
    Restore done = op.pass("vols");
    s = done.getStatus();
    assertThat(s.phase).as(s.message).isEqualTo(RunPhase.COMPLETED);
    assertThat(s.volumesCompleted).isEqualTo(2);
    assertThat(s.volumesFailed).isZero();
    assertThat(s.message).contains("volumes 2 of 2 restored").contains("logs of pod app-a/db");
    assertThat(op.eventReasons("vols"))
        .containsExactly(RunPhase.WAITING_FOR_VOLUMES.value(), RunPhase.COMPLETED.value());
    RestoreDocument results = document(done);
    assertThat(results.volumes())
        .extracting(RestoreDocument.Volume::volume, RestoreDocument.Volume::phase)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple("data", "Completed"),
            org.assertj.core.groups.Tuple.tuple("cache", "Completed"));
    assertThat(results.objects()).hasSize(4);
    assertThat(results.warnings()).singleElement().asString().contains("volume logs");

    assertThat(op.pass("vols").getStatus().phase).isEqualTo(RunPhase.COMPLETED);
    assertThat(results(done)).hasSize(1);
  }

  @Test
  void aFreshReconcilerCarriesOnARestoreWaitingForVolumesWithNothingLost() throws Exception {
    op.restore("resumed", mapped("res-a"));
    Restore waiting = op.pass("resumed");
    assertThat(waiting.getStatus().phase).isEqualTo(RunPhase.WAITING_FOR_VOLUMES);
    var kept = waiting.getStatus().progress;
    assertThat(kept.repository).isEqualTo("default");
    assertThat(kept.backupSnapshotID).isEqualTo(backup.backup().getStatus().snapshotID);
    assertThat(kept.objects).hasSize(4);
    assertThat(kept.volumeRequests)
        .extracting(v -> v.volume)
        .containsExactlyInAnyOrder("data", "cache");
    assertThat(kept.note).isNull();
    op.restart();
    Map<String, PodVolumeRestore> requests = byVolume(waiting);
    volumeDone(requests.get("data"), PodVolumePhase.COMPLETED, null);
    assertThat(op.pass("resumed").getStatus().phase).isEqualTo(RunPhase.WAITING_FOR_VOLUMES);
    op.restart();
    volumeDone(requests.get("cache"), PodVolumePhase.FAILED, "disk full");

    Restore done = op.pass("resumed");
    RestoreStatus s = done.getStatus();
    assertThat(s.phase).as(s.message).isEqualTo(RunPhase.PARTIALLY_FAILED);
    assertThat(s.volumesCompleted).isEqualTo(1);
    assertThat(s.volumesFailed).isEqualTo(1);
    assertThat(s.itemsRestored).isEqualTo(4);
    assertThat(s.progress).isNull();
    RestoreDocument results = document(done);
    // The record is the one a single process would have written.
    assertThat(results.note()).isNull();
    assertThat(results.backupSnapshot()).isEqualTo(backup.backup().getStatus().snapshotID);
    assertThat(results.itemsRestored()).isEqualTo(4);
    assertThat(results.objects()).hasSize(4);
    assertThat(results.warnings()).singleElement().asString().contains("volume logs");
    assertThat(results.volumes())
        .filteredOn(v -> v.volume().equals("cache"))
        .singleElement()
        .satisfies(
            v -> {
              assertThat(v.phase()).isEqualTo(PodVolumePhase.FAILED.value());
              assertThat(v.message()).isEqualTo("disk full");
            });
    try (Repository repo = op.openRepository()) {
      String log =
          new String(
              dev.stele.operator.backup.SmallSnapshot.read(
                  repo, op.results(repo, done).get(0).manifest(), RestoreDocument.LOG),
              java.nio.charset.StandardCharsets.UTF_8);
      assertThat(log).contains("restoring 4 of").contains("restore PartiallyFailed");
    }
    assertThat(op.pass("resumed").getStatus().phase).isEqualTo(RunPhase.PARTIALLY_FAILED);
    assertThat(results(done)).hasSize(1);
  }

  @Test
  void aRestoreLeftWaitingWithoutItsRecordInTheStatusEndsWithTheCountsAndANote() throws Exception {
    op.restore("lost", mapped("lost-a"));
    Restore waiting = op.pass("lost");
    assertThat(waiting.getStatus().phase).isEqualTo(RunPhase.WAITING_FOR_VOLUMES);
    // As an operator that kept the record in memory left it.
    waiting.getStatus().progress = null;
    waiting = client.resource(waiting).updateStatus();
    op.restart();
    Map<String, PodVolumeRestore> requests = byVolume(waiting);
    volumeDone(requests.get("data"), PodVolumePhase.COMPLETED, null);
    volumeDone(requests.get("cache"), PodVolumePhase.FAILED, "disk full");

    Restore done = op.pass("lost");
    RestoreStatus s = done.getStatus();
    assertThat(s.phase).as(s.message).isEqualTo(RunPhase.PARTIALLY_FAILED);
    assertThat(s.volumesCompleted).isEqualTo(1);
    assertThat(s.volumesFailed).isEqualTo(1);
    assertThat(s.itemsRestored).isEqualTo(4);
    RestoreDocument results = document(done);
    assertThat(results.note()).isEqualTo(Outcome.LOST);
    assertThat(results.itemsRestored()).isEqualTo(4);
    assertThat(results.volumes())
        .filteredOn(v -> v.volume().equals("cache"))
        .singleElement()
        .satisfies(
            v -> {
              assertThat(v.phase()).isEqualTo(PodVolumePhase.FAILED.value());
              assertThat(v.message()).isEqualTo("disk full");
            });
    assertThat(op.pass("lost").getStatus().phase).isEqualTo(RunPhase.PARTIALLY_FAILED);
    assertThat(results(done)).hasSize(1);
  }

  @Test
  void resultsWrittenJustBeforeARestartAreFoundNotWrittenAgain() throws Exception {
    op.restore("again", mapped("again-a"));
    Restore waiting = op.pass("again");
    byVolume(waiting).values().forEach(p -> volumeDone(p, PodVolumePhase.COMPLETED, null));
    Restore done = op.pass("again");
    assertThat(done.getStatus().phase).isEqualTo(RunPhase.COMPLETED);
    String results = done.getStatus().resultsSnapshotID;
    // The operator stopped after writing the results, before the status said Completed.
    var status = done.getStatus();
    status.phase = RunPhase.WAITING_FOR_VOLUMES;
    status.resultsSnapshotID = null;
    status.completionTimestamp = null;
    client.resource(done).updateStatus();
    op.restart();
    Restore after = op.pass("again");
    assertThat(after.getStatus().phase).isEqualTo(RunPhase.COMPLETED);
    assertThat(after.getStatus().resultsSnapshotID).isEqualTo(results);
    assertThat(results(after)).hasSize(1);
  }

  @Test
  void aRequestDeletedBeforeItEndedCountsAsFailed() throws Exception {
    op.restore("deleted", mapped("del-a"));
    Restore waiting = op.pass("deleted");
    Map<String, PodVolumeRestore> requests = byVolume(waiting);
    volumeDone(requests.get("data"), PodVolumePhase.COMPLETED, null);
    client.resource(requests.get("cache")).delete();
    RestoreStatus s = op.pass("deleted").getStatus();
    assertThat(s.phase).as(s.message).isEqualTo(RunPhase.PARTIALLY_FAILED);
    assertThat(s.volumesFailed).isEqualTo(1);
    assertThat(document(op.get(Restore.class, "deleted")).volumes())
        .extracting(RestoreDocument.Volume::message)
        .contains("the PodVolumeRestore was deleted before it ended");
  }

  @Test
  void withoutRestorePVsPodsAreRestoredWithoutTheirVolumes() throws Exception {
    var spec = mapped("novol-a");
    spec.restorePVs = false;
    op.restore("novol", spec);
    Restore done = op.pass("novol");
    assertThat(done.getStatus().phase).as(done.getStatus().message).isEqualTo(RunPhase.COMPLETED);
    assertThat(done.getStatus().volumes).isNull();
    Pod db = client.pods().inNamespace("novol-a").withName("db").get();
    assertThat(db.getSpec().getInitContainers())
        .extracting(Container::getName)
        .containsExactly("setup");
    assertThat(op.volumeRequests(done)).isEmpty();
  }
}
