package dev.stele.operator;

import static dev.stele.operator.OperatorFixture.NS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.blob.BlobInfo;
import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupStatus;
import dev.stele.k8s.api.BackupStorageLocation;
import dev.stele.k8s.api.DeleteBackupRequest;
import dev.stele.k8s.api.DeleteBackupRequestSpec;
import dev.stele.k8s.api.DeleteBackupRequestStatus;
import dev.stele.k8s.api.DeletionPhase;
import dev.stele.k8s.api.PodVolumeBackup;
import dev.stele.k8s.api.PodVolumeBackupSpec;
import dev.stele.k8s.api.RunPhase;
import dev.stele.k8s.api.SteleApi;
import dev.stele.maintenance.Maintenance;
import dev.stele.operator.deletion.BackupExpiryReconciler;
import dev.stele.operator.deletion.DeleteBackupRequestReconciler;
import dev.stele.operator.kube.Settings;
import dev.stele.repo.BlobKind;
import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import dev.stele.snapshot.FileBackupListener;
import dev.stele.snapshot.FileBackupOptions;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.testing.AuditingBlobStore;
import dev.stele.testing.BlobOperation;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Deletion and expiry on a directory bucket with governance retention (minimum 1 day): the
 * reconcilers called directly, one pass at a time, and maintenance run on the same audited store.
 */
@EnableKubernetesMockClient(crud = true)
class DeletionOperatorTest {
  static KubernetesClient client;

  @TempDir Path base;
  OperatorFixture op;
  DeleteBackupRequestReconciler deletions;
  BackupExpiryReconciler expiry;

  @BeforeEach
  void setUp() throws IOException {
    Lifecycle.clean(client);
    Files.createDirectories(base.resolve("bucket"));
    op = new OperatorFixture(client);
    Lifecycle.world(op, Lifecycle.location(base, "Governance", "1d"));
    Settings settings = Lifecycle.settings(op);
    deletions = new DeleteBackupRequestReconciler(client, settings);
    expiry = new BackupExpiryReconciler(client, settings);
  }

  @AfterEach
  void writeOnce() {
    op.assertWriteOnce();
  }

  Backup completed(String name, String ttl) {
    op.backup(name, Lifecycle.appSpec(ttl));
    Backup b = op.reconcileBackup(name);
    assertThat(b.getStatus().phase).as(b.getStatus().message).isEqualTo(RunPhase.COMPLETED);
    return b;
  }

  /** A pod volume's snapshot, as the node agent writes it for the backup before its manifest. */
  Id part(Backup backup, String volume) throws IOException {
    Path dir = Files.createDirectories(base.resolve("volumes/" + volume));
    Files.writeString(dir.resolve("data.txt"), ("rows of " + volume + "\n").repeat(500));
    Instant expires = Instant.parse(backup.getStatus().expiration);
    try (Repository repo = Lifecycle.open(op, base)) {
      return new dev.stele.snapshot.FileBackup(
              repo,
              FileBackupOptions.defaults("node-1")
                  .withTags(List.of(SteleApi.POD_VOLUME_TAG))
                  .withExpiry(expires)
                  .withThreads(1)
                  .withLabels(
                      Map.of(
                          SteleApi.PART_OF_LABEL, backup.getMetadata().getUid(),
                          SteleApi.BACKUP_NAME_LABEL, backup.getMetadata().getName(),
                          SteleApi.VOLUME_LABEL, volume)),
              FileBackupListener.NONE)
          .run(List.of(dir))
          .id();
    }
  }

  DeleteBackupRequest request(String name, String backup) {
    var r = new DeleteBackupRequest();
    r.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(NS).build());
    r.setSpec(new DeleteBackupRequestSpec());
    r.getSpec().backupName = backup;
    return client.resource(r).create();
  }

  DeleteBackupRequest request(String name) {
    return client.resources(DeleteBackupRequest.class).inNamespace(NS).withName(name).get();
  }

  Duration pass(String request) {
    return deletions.reconcile(request(request));
  }

  void podVolumeBackup(String name, String backup) {
    var p = new PodVolumeBackup();
    p.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(NS).build());
    p.setSpec(new PodVolumeBackupSpec());
    p.getSpec().backupName = backup;
    client.resource(p).create();
  }

  AuditingBlobStore audited() throws IOException {
    return (AuditingBlobStore) Lifecycle.store(op, base);
  }

  Set<String> names() throws IOException {
    return audited().list("").stream().map(BlobInfo::name).collect(Collectors.toSet());
  }

  @Test
  void deletionTombstonesManifestAndPartsRemovesTheBackupAndDeletesNothing() throws IOException {
    Backup b = completed("nightly", "72h");
    Id manifest = Id.parse(b.getStatus().snapshotID);
    Id volume = part(b, "data");
    podVolumeBackup("nightly-data", "nightly");
    podVolumeBackup("other-data", "other");
    Backup kept = completed("kept", "72h");
    Set<String> before = names();
    int callsBefore = audited().calls().size();

    request("delete-nightly", "nightly");
    assertThat(pass("delete-nightly")).isNull();

    DeleteBackupRequestStatus s = request("delete-nightly").getStatus();
    assertThat(s.phase).as(s.message).isEqualTo(DeletionPhase.PROCESSED);
    assertThat(s.errors).isNull();
    assertThat(op.backup("nightly")).isNull();
    assertThat(op.backup("kept")).isNotNull();
    assertThat(client.resources(PodVolumeBackup.class).inNamespace(NS).list().getItems())
        .extracting(p -> p.getMetadata().getName())
        .containsExactly("other-data");
    assertThat(op.eventReasons("delete-nightly")).contains("BackupDeleted");

    try (Repository repo = Lifecycle.open(op, base)) {
      // The backup's snapshots: its manifest, the volume part, and whatever parts the backup
      // reconciler writes itself (the resources snapshot).
      Set<String> ours =
          new SnapshotCatalog(repo)
              .list().stream()
                  .filter(e -> e.id().equals(manifest) || isPartOf(e, b))
                  .map(SnapshotCatalog.Entry::name)
                  .collect(Collectors.toSet());
      assertThat(ours).isEmpty();
      Map<String, List<Id>> tombstones = repo.tombstones();
      assertThat(tombstones)
          .containsKeys(BlobKind.SNAPSHOT.nameOf(manifest), BlobKind.SNAPSHOT.nameOf(volume));
      assertThat(tombstones.values().stream().mapToInt(List::size).sum())
          .isEqualTo(s.tombstones.size());
      assertThat(tombstones.values().stream().flatMap(List::stream).map(BlobKind.TOMBSTONE::nameOf))
          .containsExactlyInAnyOrderElementsOf(s.tombstones);
      assertThat(new SnapshotCatalog(repo).list())
          .filteredOn(e -> e.manifest().tags().contains(SteleApi.BACKUP_TAG))
          .extracting(e -> e.id().hex())
          .containsExactly(kept.getStatus().snapshotID);

      // Retained until the latest retention of the two manifests, which is the backup's expiry.
      Instant expiration = Instant.parse(b.getStatus().expiration);
      Instant until = Instant.parse(s.retainedUntil);
      assertThat(until).isEqualTo(expiration);
      assertThat(repo.store().retention(BlobKind.SNAPSHOT.nameOf(manifest)).until())
          .isEqualTo(expiration);
      assertThat(s.message).contains("retains the data until " + until).contains("maintenance");
    }

    // Nothing was deleted or rewritten: every blob is still there, the new ones are tombstones.
    Set<String> after = names();
    assertThat(after).containsAll(before);
    assertThat(after.stream().filter(n -> !before.contains(n)))
        .allMatch(n -> n.startsWith("tombstones/"))
        .hasSize(s.tombstones.size());
    assertThat(audited().calls().subList(callsBefore, audited().calls().size()))
        .noneMatch(c -> c.operation() == BlobOperation.DELETE);

    // Processed is final: another pass writes nothing.
    pass("delete-nightly");
    assertThat(names()).isEqualTo(after);

    // Maintenance within retention defers the forgotten manifests; past it, reclaims them.
    op.clock.advance(Duration.ofHours(7));
    try (Repository repo = Lifecycle.open(op, base)) {
      audited().setPhase("maintenance");
      Maintenance.Result early = new Maintenance(repo).run(false);
      assertThat(early.record().deferred())
          .contains(BlobKind.SNAPSHOT.nameOf(manifest), BlobKind.SNAPSHOT.nameOf(volume));
      assertThat(names())
          .contains(BlobKind.SNAPSHOT.nameOf(manifest), BlobKind.SNAPSHOT.nameOf(volume));
    }
    op.clock.set(Instant.parse(s.retainedUntil).plus(Duration.ofHours(1)));
    try (Repository repo = Lifecycle.open(op, base)) {
      Maintenance.Result late = new Maintenance(repo).run(false);
      assertThat(late.record().deleted())
          .contains(BlobKind.SNAPSHOT.nameOf(manifest), BlobKind.SNAPSHOT.nameOf(volume));
      assertThat(new SnapshotCatalog(repo).list())
          .filteredOn(e -> e.manifest().tags().contains(SteleApi.BACKUP_TAG))
          .extracting(e -> e.id().hex())
          .containsExactly(kept.getStatus().snapshotID);
    }
    // op.assertWriteOnce (after each test): no delete was ever attempted on a retained blob.
  }

  static boolean isPartOf(SnapshotCatalog.Entry e, Backup b) {
    return b.getMetadata().getUid().equals(e.manifest().labels().get(SteleApi.PART_OF_LABEL));
  }

  @Test
  void aFailedBackupHasItsPartsForgottenToo() throws IOException {
    Backup b = op.backup("broken", Lifecycle.appSpec("48h"));
    var status = new BackupStatus();
    status.phase = RunPhase.FAILED;
    status.repository = "default";
    status.expiration = op.clock.instant().plus(Duration.ofDays(2)).toString();
    status.message = "a volume failed before the manifest";
    b.setStatus(status);
    b = client.resource(b).updateStatus();
    Id volume = part(b, "data");

    request("delete-broken", "broken");
    pass("delete-broken");
    DeleteBackupRequestStatus s = request("delete-broken").getStatus();
    assertThat(s.phase).isEqualTo(DeletionPhase.PROCESSED);
    assertThat(s.tombstones).hasSize(1);
    assertThat(s.retainedUntil).isEqualTo(status.expiration);
    assertThat(op.backup("broken")).isNull();
    try (Repository repo = Lifecycle.open(op, base)) {
      assertThat(repo.tombstoned()).containsExactly(BlobKind.SNAPSHOT.nameOf(volume));
    }
  }

  @Test
  void aRunningBackupIsWaitedForAndAReadOnlyLocationIsRetried() throws IOException {
    Backup running = op.backup("running", Lifecycle.appSpec("24h"));
    var status = new BackupStatus();
    status.phase = RunPhase.IN_PROGRESS;
    running.setStatus(status);
    client.resource(running).updateStatus();
    request("delete-running", "running");
    assertThat(pass("delete-running")).isEqualTo(Settings.DEFAULT_RECHECK);
    assertThat(request("delete-running").getStatus().phase).isEqualTo(DeletionPhase.IN_PROGRESS);
    assertThat(request("delete-running").getStatus().message)
        .isEqualTo("waiting for Backup running to finish (InProgress)");
    assertThat(op.backup("running")).isNotNull();

    completed("nightly", "24h");
    BackupStorageLocation bsl = op.bsl("default");
    bsl.getSpec().accessMode = "ReadOnly";
    client.resource(bsl).update();
    Set<String> before = names();
    request("delete-nightly", "nightly");
    assertThat(pass("delete-nightly")).isEqualTo(Settings.DEFAULT_RECHECK);
    DeleteBackupRequestStatus s = request("delete-nightly").getStatus();
    assertThat(s.phase).isEqualTo(DeletionPhase.IN_PROGRESS);
    assertThat(s.errors).singleElement().asString().contains("is ReadOnly");
    assertThat(s.tombstones).isNull();
    assertThat(op.eventReasons("delete-nightly")).containsExactly("DeletionFailed");
    assertThat(op.backup("nightly")).isNotNull();
    assertThat(names()).isEqualTo(before);

    bsl = op.bsl("default");
    bsl.getSpec().accessMode = "ReadWrite";
    client.resource(bsl).update();
    assertThat(pass("delete-nightly")).isNull();
    s = request("delete-nightly").getStatus();
    assertThat(s.phase).isEqualTo(DeletionPhase.PROCESSED);
    assertThat(s.errors).isNull();
    assertThat(op.backup("nightly")).isNull();
  }

  @Test
  void aDeletionRepeatedAfterACrashReusesTheTombstonesWritten() throws IOException {
    Backup b = completed("nightly", "24h");
    Id manifest = Id.parse(b.getStatus().snapshotID);
    // An earlier pass forgot the manifest and stopped before it recorded anything.
    Id earlier;
    try (Repository repo = Lifecycle.open(op, base)) {
      earlier = new SnapshotCatalog(repo).forget(manifest, "an earlier pass");
    }
    request("again", "nightly");
    pass("again");
    DeleteBackupRequestStatus s = request("again").getStatus();
    assertThat(s.phase).isEqualTo(DeletionPhase.PROCESSED);
    assertThat(s.tombstones).contains(BlobKind.TOMBSTONE.nameOf(earlier));
    try (Repository repo = Lifecycle.open(op, base)) {
      assertThat(repo.tombstones().get(BlobKind.SNAPSHOT.nameOf(manifest)))
          .containsExactly(earlier);
    }

    // A request whose Backup is gone but whose tombstones are recorded just finishes.
    var r = request("recorded", "nightly");
    var recorded = new DeleteBackupRequestStatus();
    recorded.phase = DeletionPhase.IN_PROGRESS;
    recorded.tombstones = List.of(BlobKind.TOMBSTONE.nameOf(earlier));
    recorded.message = "1 tombstones written";
    r.setStatus(recorded);
    client.resource(r).updateStatus();
    pass("recorded");
    assertThat(request("recorded").getStatus().phase).isEqualTo(DeletionPhase.PROCESSED);
    assertThat(request("recorded").getStatus().errors).isNull();

    // One for a Backup that never existed says so.
    request("nothing", "never-was");
    pass("nothing");
    DeleteBackupRequestStatus none = request("nothing").getStatus();
    assertThat(none.phase).isEqualTo(DeletionPhase.PROCESSED);
    assertThat(none.errors).containsExactly("Backup never-was does not exist in " + NS);
    assertThat(op.eventReasons("nothing")).containsExactly("DeletionFailed");
  }

  @Test
  void aFinishedBackupPastItsTtlGetsADeleteBackupRequest() {
    Backup b = completed("short", "1h");
    Duration left = expiry.reconcile(op.backup("short"));
    assertThat(left).isBetween(Duration.ofMinutes(59), Duration.ofHours(1));
    assertThat(request("short-expired")).isNull();

    op.clock.advance(Duration.ofMinutes(61));
    assertThat(expiry.reconcile(op.backup("short"))).isNull();
    DeleteBackupRequest r = request("short-expired");
    assertThat(r).isNotNull();
    assertThat(r.getSpec().backupName).isEqualTo("short");
    assertThat(op.eventReasons("short")).contains("Expired");
    // Again: the request exists, nothing more.
    assertThat(expiry.reconcile(op.backup("short"))).isNull();

    pass("short-expired");
    assertThat(request("short-expired").getStatus().phase).isEqualTo(DeletionPhase.PROCESSED);
    assertThat(op.backup("short")).isNull();
    assertThat(b.getStatus().expiration).isNotNull();

    // A Backup that has not finished does not expire.
    Backup running = op.backup("running", Lifecycle.appSpec("1h"));
    var status = new BackupStatus();
    status.phase = RunPhase.IN_PROGRESS;
    status.expiration = op.clock.instant().minus(Duration.ofHours(1)).toString();
    running.setStatus(status);
    client.resource(running).updateStatus();
    assertThat(expiry.reconcile(op.backup("running"))).isNull();
    assertThat(request("running-expired")).isNull();
  }
}
