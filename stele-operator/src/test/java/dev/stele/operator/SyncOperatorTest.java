package dev.stele.operator;

import static dev.stele.operator.OperatorFixture.NS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupSpec;
import dev.stele.k8s.api.BackupStatus;
import dev.stele.k8s.api.DeleteBackupRequest;
import dev.stele.k8s.api.DeleteBackupRequestSpec;
import dev.stele.k8s.api.LocationPhase;
import dev.stele.k8s.api.RepositoryPhase;
import dev.stele.k8s.api.Restore;
import dev.stele.k8s.api.RestoreSpec;
import dev.stele.k8s.api.RunPhase;
import dev.stele.k8s.api.SteleApi;
import dev.stele.operator.backup.BackupDocument;
import dev.stele.operator.deletion.DeleteBackupRequestReconciler;
import dev.stele.operator.kube.Settings;
import dev.stele.operator.restore.RestoreReconciler;
import dev.stele.operator.sync.BackupSyncReconciler;
import dev.stele.repo.BlobKind;
import dev.stele.repo.ChunkType;
import dev.stele.repo.ChunkWriter;
import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import dev.stele.repo.SnapshotManifest;
import dev.stele.snapshot.Node;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.snapshot.Tree;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sync into a new cluster: backups made in cluster A (the class's mock API server) are found by
 * cluster B (a second, empty mock API server) pointed at the same directory bucket with the same
 * repository password.
 */
@EnableKubernetesMockClient(crud = true)
class SyncOperatorTest {
  static KubernetesClient client;

  @TempDir Path base;
  OperatorFixture a;
  KubernetesMockServer serverB;
  KubernetesClient clientB;
  OperatorFixture b;
  BackupSyncReconciler sync;

  @BeforeEach
  void setUp() throws IOException {
    Lifecycle.clean(client);
    Files.createDirectories(base.resolve("bucket"));
    a = new OperatorFixture(client);
    Lifecycle.world(a, Lifecycle.location(base, null, null));

    serverB =
        new KubernetesMockServer(
            new Context(),
            new MockWebServer(),
            new HashMap<>(),
            new KubernetesCrudDispatcher(),
            false);
    serverB.init();
    clientB = serverB.createClient();
    b = new OperatorFixture(clientB);
    sync = new BackupSyncReconciler(clientB, Lifecycle.settings(b));
  }

  @AfterEach
  void tearDown() {
    try {
      a.assertWriteOnce();
      if (!b.audits.isEmpty()) {
        b.assertWriteOnce();
      }
    } finally {
      clientB.close();
      serverB.destroy();
    }
  }

  /** Cluster B: the same location and password; its default repository adopts A's. */
  void connectB() {
    b.secret(
        "default-repository-password",
        Map.of("password", a.secretValue("default-repository-password", "password")));
    b.bsl("default", Lifecycle.location(base, null, null));
    assertThat(b.reconcile("default").getStatus().phase).isEqualTo(LocationPhase.AVAILABLE);
    var bslr = b.reconcileRepository("default");
    assertThat(bslr.getStatus().phase).isEqualTo(RepositoryPhase.READY);
    assertThat(bslr.getStatus().repositoryID).isEqualTo(a.bslr("default").getStatus().repositoryID);
  }

  Backup completedInA(String name) {
    a.backup(name, Lifecycle.appSpec("24h"));
    Backup done = a.reconcileBackup(name);
    assertThat(done.getStatus().phase).isEqualTo(RunPhase.COMPLETED);
    return done;
  }

  Duration syncB() {
    return sync.reconcile(b.bslr("default"));
  }

  List<Backup> backupsInB() {
    return clientB.resources(Backup.class).inNamespace(NS).list().getItems();
  }

  int snapshotCount() throws IOException {
    try (Repository repo = Lifecycle.open(a, base)) {
      return repo.list(BlobKind.SNAPSHOT).size();
    }
  }

  @Test
  void aNewClusterGetsTheBackupsOnceAndNotTheDeletedOnes() throws IOException {
    Backup one = completedInA("one");
    Backup two = completedInA("two");
    completedInA("gone");
    var request = new DeleteBackupRequest();
    request.setMetadata(new ObjectMetaBuilder().withName("delete-gone").withNamespace(NS).build());
    request.setSpec(new DeleteBackupRequestSpec());
    request.getSpec().backupName = "gone";
    new DeleteBackupRequestReconciler(client, Lifecycle.settings(a))
        .reconcile(client.resource(request).create());
    assertThat(a.backup("gone")).isNull();

    connectB();
    assertThat(syncB()).isEqualTo(Settings.DEFAULT_BACKUP_SYNC_PERIOD);
    assertThat(backupsInB())
        .extracting(x -> x.getMetadata().getName())
        .containsExactlyInAnyOrder("one", "two");
    for (Backup original : List.of(one, two)) {
      Backup synced = b.backup(original.getMetadata().getName());
      BackupStatus s = synced.getStatus();
      BackupStatus o = original.getStatus();
      assertThat(s.phase).isEqualTo(RunPhase.COMPLETED);
      assertThat(s.snapshotID).isEqualTo(o.snapshotID);
      assertThat(s.manifest).isEqualTo(o.manifest);
      assertThat(s.items).isEqualTo(o.items);
      assertThat(s.errors).isEqualTo(o.errors);
      assertThat(s.warnings).isEqualTo(o.warnings);
      assertThat(s.expiration).isEqualTo(o.expiration);
      assertThat(s.repository).isEqualTo("default");
      assertThat(s.message).contains("synced from repository default");
      assertThat(synced.getMetadata().getAnnotations())
          .containsEntry(SteleApi.SYNCED_FROM_ANNOTATION, o.snapshotID);
      assertThat(synced.getSpec().repository).isEqualTo("default");
      assertThat(synced.getSpec().storageLocation).isEqualTo("default");
    }
    assertThat(b.eventReasons("default")).contains("BackupsSynced");

    // Later passes create nothing more: the same objects, untouched.
    String version = b.backup("one").getMetadata().getResourceVersion();
    syncB();
    syncB();
    assertThat(backupsInB()).hasSize(2);
    assertThat(b.backup("one").getMetadata().getResourceVersion()).isEqualTo(version);
    assertThat(b.eventReasons("default").stream().filter("BackupsSynced"::equals)).hasSize(1);

    // A backup made in A after the first sync arrives at the next.
    completedInA("three");
    syncB();
    assertThat(backupsInB()).hasSize(3);
    assertThat(b.backup("three").getStatus().snapshotID)
        .isEqualTo(a.backup("three").getStatus().snapshotID);
  }

  void deleteIn(KubernetesClient cluster, OperatorFixture op, String backup) {
    var request = new DeleteBackupRequest();
    request.setMetadata(
        new ObjectMetaBuilder().withName("delete-" + backup).withNamespace(NS).build());
    request.setSpec(new DeleteBackupRequestSpec());
    request.getSpec().backupName = backup;
    new DeleteBackupRequestReconciler(cluster, Lifecycle.settings(op))
        .reconcile(cluster.resource(request).create());
    assertThat(op.backup(backup)).isNull();
  }

  int tombstoneCount() throws IOException {
    try (Repository repo = Lifecycle.open(a, base)) {
      return repo.list(BlobKind.TOMBSTONE).size();
    }
  }

  static List<String> names(List<Backup> backups) {
    return backups.stream().map(x -> x.getMetadata().getName()).toList();
  }

  String removedMessage(OperatorFixture op) {
    return op.client.v1().events().inNamespace(NS).list().getItems().stream()
        .filter(e -> "BackupsRemoved".equals(e.getReason()))
        .map(e -> e.getMessage())
        .findFirst()
        .orElse(null);
  }

  @Test
  void aBackupDeletedInOneClusterLeavesEveryClusterThatSyncsTheRepository() throws IOException {
    completedInA("one");
    completedInA("gone");
    connectB();
    syncB();
    assertThat(names(backupsInB())).containsExactlyInAnyOrder("one", "gone");
    String goneId = b.backup("gone").getStatus().snapshotID;
    // A Backup of B still running, whose status (wrongly) names the same manifest: never removed.
    Backup running = new Backup();
    running.setMetadata(new ObjectMetaBuilder().withName("running").withNamespace(NS).build());
    running.setSpec(new BackupSpec());
    running = clientB.resource(running).create();
    running.setStatus(new BackupStatus());
    running.getStatus().phase = RunPhase.IN_PROGRESS;
    running.getStatus().snapshotID = goneId;
    running.getStatus().repository = "default";
    clientB.resource(running).updateStatus();

    deleteIn(client, a, "gone");
    int tombstones = tombstoneCount();
    syncB();
    assertThat(names(backupsInB())).containsExactlyInAnyOrder("one", "running");
    assertThat(removedMessage(b))
        .contains(
            "removed 1 Backups deleted from the repository: gone: its manifest was tombstoned")
        .contains("Backup stele/gone deleted by DeleteBackupRequest delete-gone");
    // Removing it wrote nothing and asked for nothing: no tombstone, no request in B.
    assertThat(tombstoneCount()).isEqualTo(tombstones);
    assertThat(clientB.resources(DeleteBackupRequest.class).inNamespace(NS).list().getItems())
        .isEmpty();
    syncB();
    assertThat(names(backupsInB())).containsExactlyInAnyOrder("one", "running");
    assertThat(b.eventReasons("default").stream().filter("BackupsRemoved"::equals)).hasSize(1);

    // The other way round: B deletes the synced "one", and A, where it was made, follows.
    deleteIn(clientB, b, "one");
    tombstones = tombstoneCount();
    assertThat(new BackupSyncReconciler(client, Lifecycle.settings(a)).reconcile(a.bslr("default")))
        .isEqualTo(Settings.DEFAULT_BACKUP_SYNC_PERIOD);
    assertThat(a.backup("one")).isNull();
    assertThat(removedMessage(a)).contains("one: ").contains("DeleteBackupRequest delete-one");
    assertThat(tombstoneCount()).isEqualTo(tombstones);
  }

  @Test
  void aSyncThatCannotReadTheTombstonesRemovesNothing() throws IOException {
    completedInA("gone");
    connectB();
    syncB();
    deleteIn(client, a, "gone");
    b.unlisted = BlobKind.TOMBSTONE.prefix();
    syncB();
    assertThat(names(backupsInB())).containsExactly("gone");
    assertThat(b.eventReasons("default")).contains("SyncFailed").doesNotContain("BackupsRemoved");
    b.unlisted = null;
    syncB();
    assertThat(backupsInB()).isEmpty();
  }

  @Test
  void aRestoreOfABackupDeletedElsewhereIsRefusedBeforeSyncRemovesIt() throws IOException {
    completedInA("gone");
    connectB();
    syncB();
    deleteIn(client, a, "gone");
    var restore = new Restore();
    restore.setMetadata(new ObjectMetaBuilder().withName("late").withNamespace(NS).build());
    restore.setSpec(new RestoreSpec());
    restore.getSpec().backupName = "gone";
    restore.getSpec().namespaceMapping = Map.of("app", "app-copy");
    new RestoreReconciler(clientB, Lifecycle.settings(b))
        .reconcile(clientB.resource(restore).create());
    Restore refused = clientB.resources(Restore.class).inNamespace(NS).withName("late").get();
    assertThat(refused.getStatus().phase).isEqualTo(RunPhase.FAILED_VALIDATION);
    assertThat(refused.getStatus().message)
        .startsWith("backup gone was deleted from repository default: its manifest was tombstoned")
        .contains("DeleteBackupRequest delete-gone")
        .endsWith("it cannot be restored");
    assertThat(b.eventReasons("late")).containsExactly("FailedValidation");
    assertThat(clientB.namespaces().withName("app-copy").get()).isNull();
  }

  @Test
  void aSyncedBackupIsNeverRun() throws IOException {
    completedInA("one");
    connectB();
    syncB();
    int before = snapshotCount();
    Backup synced = b.backup("one");
    assertThat(b.reconcileBackup("one").getStatus().phase).isEqualTo(RunPhase.COMPLETED);
    assertThat(b.backup("one").getStatus().snapshotID).isEqualTo(synced.getStatus().snapshotID);

    // Created by a sync pass that stopped before it wrote the status: still never run.
    Backup bare = new Backup();
    bare.setMetadata(
        new ObjectMetaBuilder()
            .withName("bare")
            .withNamespace(NS)
            .withAnnotations(Map.of(SteleApi.SYNCED_FROM_ANNOTATION, synced.getStatus().snapshotID))
            .build());
    bare.setSpec(Lifecycle.appSpec("24h"));
    clientB.resource(bare).create();
    assertThat(b.reconcileBackup("bare").getStatus()).isNull();
    assertThat(snapshotCount()).isEqualTo(before);
  }

  @Test
  void aBackupCreatedBeforeItsStatusWasWrittenGetsItsStatusAtTheNextPass() throws IOException {
    Backup one = completedInA("one");
    connectB();
    Backup bare = new Backup();
    bare.setMetadata(
        new ObjectMetaBuilder()
            .withName("one")
            .withNamespace(NS)
            .withAnnotations(Map.of(SteleApi.SYNCED_FROM_ANNOTATION, one.getStatus().snapshotID))
            .build());
    bare.setSpec(new BackupSpec());
    String uid = clientB.resource(bare).create().getMetadata().getUid();
    syncB();
    Backup synced = b.backup("one");
    assertThat(synced.getMetadata().getUid()).isEqualTo(uid);
    assertThat(synced.getStatus().phase).isEqualTo(RunPhase.COMPLETED);
    assertThat(synced.getStatus().snapshotID).isEqualTo(one.getStatus().snapshotID);
  }

  @Test
  void theSpecComesFromBackupJsonInTheSnapshot() throws IOException {
    BackupSpec spec = Lifecycle.appSpec("48h");
    spec.excludedResources = List.of("secrets");
    Instant started = a.clock.instant();
    Instant expires = started.plus(Duration.ofDays(2));
    var doc =
        new BackupDocument(
            BackupDocument.VERSION,
            "documented",
            NS,
            "uid-of-documented",
            spec,
            RunPhase.PARTIALLY_FAILED.value(),
            started.toString(),
            started.plusSeconds(42).toString(),
            expires.toString(),
            3,
            List.of(),
            List.of("volume app/db/data failed"),
            "ab".repeat(32),
            List.of(
                new BackupDocument.Volume("app", "db", "data", "Failed", "refused", null, 0),
                new BackupDocument.Volume(
                    "app", "web", "html", "Completed", null, "cd".repeat(32), 9)));
    Id id;
    try (Repository repo = Lifecycle.open(a, base)) {
      repo.reloadIndex();
      repo.loadIndex();
      Id tree;
      try (ChunkWriter writer = repo.newWriter(1, expires)) {
        byte[] json = doc.encode();
        Id data = writer.store(ChunkType.DATA, json);
        Node file =
            new Node(
                BackupDocument.FILE,
                Node.Kind.FILE,
                0644,
                0,
                0,
                0,
                0,
                0,
                0,
                1,
                json.length,
                List.of(data),
                null,
                null);
        tree = writer.store(ChunkType.TREE, new Tree(List.of(file)).encode());
        writer.flush();
      }
      id =
          new SnapshotCatalog(repo)
              .write(
                  new SnapshotManifest(
                      SnapshotManifest.VERSION,
                      started,
                      "kubernetes",
                      "stele-operator",
                      List.of("/backup"),
                      List.of(SteleApi.BACKUP_TAG),
                      null,
                      tree.hex(),
                      expires,
                      new SnapshotManifest.Stats(3, 1, 0, 0, 0, 0, 0, 0, 0),
                      Map.of(
                          SteleApi.BACKUP_NAME_LABEL, "documented",
                          SteleApi.BACKUP_UID_LABEL, "uid-of-documented",
                          SteleApi.BACKUP_PHASE_LABEL, RunPhase.PARTIALLY_FAILED.value(),
                          SteleApi.BACKUP_EXPIRATION_LABEL, expires.toString(),
                          SteleApi.BACKUP_ITEMS_LABEL, "3",
                          SteleApi.BACKUP_WARNINGS_LABEL, "0",
                          SteleApi.BACKUP_ERRORS_LABEL, "1")));
    }

    connectB();
    syncB();
    Backup synced = b.backup("documented");
    assertThat(synced.getSpec().includedNamespaces).containsExactly("app");
    assertThat(synced.getSpec().excludedResources).containsExactly("secrets");
    assertThat(synced.getSpec().ttl).isEqualTo("48h");
    assertThat(synced.getSpec().repository).isEqualTo("default");
    BackupStatus s = synced.getStatus();
    assertThat(s.phase).isEqualTo(RunPhase.PARTIALLY_FAILED);
    assertThat(s.snapshotID).isEqualTo(id.hex());
    assertThat(s.items).isEqualTo(3);
    assertThat(s.errors).isEqualTo(1);
    assertThat(s.expiration).isEqualTo(expires.toString());
    assertThat(s.completionTimestamp).isEqualTo(started.plusSeconds(42).toString());
    assertThat(s.resourcesSnapshotID).isEqualTo("ab".repeat(32));
    assertThat(s.volumes).isEqualTo(2);
    assertThat(s.volumesCompleted).isEqualTo(1);
    assertThat(s.volumesFailed).isEqualTo(1);
  }
}
