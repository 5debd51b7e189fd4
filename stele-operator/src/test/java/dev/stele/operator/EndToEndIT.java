package dev.stele.operator;

import static dev.stele.operator.OperatorFixture.NS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupSpec;
import dev.stele.k8s.api.BackupStatus;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.BackupStorageLocationRepositoryStatus;
import dev.stele.k8s.api.DeleteBackupRequest;
import dev.stele.k8s.api.DeleteBackupRequestSpec;
import dev.stele.k8s.api.DeletionPhase;
import dev.stele.k8s.api.MaintenanceResult;
import dev.stele.k8s.api.PodVolumeBackup;
import dev.stele.k8s.api.PodVolumePhase;
import dev.stele.k8s.api.RepositoryPhase;
import dev.stele.k8s.api.Restore;
import dev.stele.k8s.api.RestoreSpec;
import dev.stele.k8s.api.RestoreStatus;
import dev.stele.k8s.api.RunPhase;
import dev.stele.k8s.api.SteleApi;
import dev.stele.k8s.testing.ApiServer;
import dev.stele.operator.kube.Settings;
import dev.stele.operator.nodeagent.NodeSettings;
import dev.stele.testing.Await;
import dev.stele.testing.RandomTree;
import dev.stele.testing.Rgw;
import dev.stele.testing.TreeAssert;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole system, as a cluster runs it: the operator ({@link SteleOperator}) and a node agent
 * ({@link NodeAgent}) on real java-operator-sdk Operators in production's configuration
 * (server-side apply on) against the test API server ({@link ApiServer}: fabric8's CRUD mock with
 * apply patches and discovery), a Ceph RGW bucket under a COMPLIANCE lock, and directories standing
 * in for the kubelet's pod volumes ({@link FakeKubelet}). The test acts as kubectl and as the
 * kubelet and only waits for the operator to act. Every store either cluster's processes open is
 * audited: no key is written twice and no delete is attempted on a retained blob.
 *
 * <p>The story: a backup of two namespaces whose pod volumes complete only after the operator was
 * stopped while waiting for them (and one volume fails); a restore into mapped namespaces with
 * byte-exact volume data; a second backup deleted under retention, its data kept and the deferral
 * reported by maintenance; a second, empty cluster pointed at the same bucket syncs the remaining
 * backup and restores it.
 */
class EndToEndIT {
  static final long T0 = System.nanoTime();
  static final Duration TIMEOUT = Duration.ofSeconds(90);
  final ApiServer server = new ApiServer();
  final KubernetesClient client = server.client();

  @TempDir Path base;
  OperatorFixture op;
  SteleOperator operator;
  NodeAgent agent;
  ApiServer serverB;
  KubernetesClient clientB;
  OperatorFixture opB;
  SteleOperator operatorB;
  NodeAgent agentB;

  @AfterEach
  void stop() {
    for (AutoCloseable c : new AutoCloseable[] {agent, operator, agentB, operatorB}) {
      try {
        if (c != null) {
          c.close();
        }
      } catch (Exception e) {
        // stopping is best effort; the assertions below are what matters
      }
    }
    if (clientB != null) {
      clientB.close();
    }
    if (serverB != null) {
      serverB.close();
    }
    client.close();
    server.close();
    op.assertWriteOnce();
    if (opB != null) {
      opB.assertWriteOnce();
    }
  }

  Settings settings(OperatorFixture fixture) {
    return new Settings(
        fixture.time,
        fixture.stores,
        OperatorFixture::cheapKdf,
        Duration.ofSeconds(1),
        List.of(),
        Duration.ofSeconds(1));
  }

  @Test
  void backupRestoreDeleteAndSyncOnACompliantBucket() throws Exception {
    long started = System.nanoTime();
    op = new OperatorFixture(client);
    Rgw rgw = Rgw.shared();
    String bucket = RgwOperatorIT.bucket(true);
    credentials(op, rgw);
    op.bsl("default", RgwOperatorIT.spec(bucket, "Compliance", "1d"));
    operator = SteleOperator.start(client, settings(op), -1, true, NS);
    await("repository Ready", () -> op.bslr("default"), r -> ready(r));

    // Two applications with data in their pod volumes; one volume's directory is gone.
    FakeKubelet kubelet = new FakeKubelet(client, "node-1", base.resolve("kubelet-1"));
    for (String ns : List.of("app1", "app2", "unrelated")) {
      namespace(client, ns);
      configMap(client, ns, "settings", Map.of("mode", "fast-" + ns));
    }
    client
        .secrets()
        .inNamespace("app1")
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName("db-password")
                .endMetadata()
                .addToStringData("password", "hunter2")
                .build())
        .create();
    Pod db = kubelet.run("app1", "db", List.of("data", "wal"), SteleApi.BACKUP_VOLUMES_ANNOTATION);
    Pod cache =
        kubelet.run("app2", "cache", List.of("scratch"), SteleApi.VELERO_BACKUP_VOLUMES_ANNOTATION);
    Pod broken = kubelet.run("app2", "broken", List.of("gone"), SteleApi.BACKUP_VOLUMES_ANNOTATION);
    kubelet.run("unrelated", "other", List.of("data"), SteleApi.BACKUP_VOLUMES_ANNOTATION);
    new RandomTree(1).files(60).maxFileSize(2 << 20).writeTo(kubelet.volumeDir(db, "data"));
    new RandomTree(2).files(30).writeTo(kubelet.volumeDir(db, "wal"));
    new RandomTree(3).files(20).links(true).writeTo(kubelet.volumeDir(cache, "scratch"));
    deleteTree(kubelet.volumeDir(broken, "gone"));

    // kubectl apply -f backup.yaml. No node agent runs yet: the backup waits for its volumes.
    var spec = new BackupSpec();
    spec.includedNamespaces = List.of("app1", "app2");
    spec.ttl = "720h";
    op.backup("nightly", spec);
    Backup waiting =
        await(
            "nightly waiting",
            () -> op.backup("nightly"),
            b -> phase(b, RunPhase.WAITING_FOR_VOLUMES));
    assertThat(waiting.getStatus().volumes).isEqualTo(4);
    assertThat(client.resources(PodVolumeBackup.class).inNamespace(NS).list().getItems())
        .hasSize(4);

    // The operator is killed while waiting; the node agent starts and serves the volumes.
    operator.close();
    operator = null;
    agent = NodeAgent.start(client, settings(op), node(kubelet), NS, true);
    await(
        "volumes finished",
        () ->
            client.resources(PodVolumeBackup.class).inNamespace(NS).list().getItems().stream()
                .map(
                    p ->
                        p.getStatus() == null
                            ? "-"
                            : p.getStatus().phase + ": " + p.getStatus().message)
                .toList(),
        l ->
            l.stream()
                .allMatch(
                    p ->
                        p.startsWith(PodVolumePhase.COMPLETED.value())
                            || p.startsWith(PodVolumePhase.FAILED.value())));
    assertThat(op.backup("nightly").getStatus().phase).isEqualTo(RunPhase.WAITING_FOR_VOLUMES);
    operator = SteleOperator.start(client, settings(op), -1, true, NS);
    Backup nightly =
        await("nightly finished", () -> op.backup("nightly"), b -> finalPhase(b.getStatus()));
    BackupStatus ns = nightly.getStatus();
    assertThat(ns.phase).as(ns.message).isEqualTo(RunPhase.PARTIALLY_FAILED);
    assertThat(ns.volumesCompleted).isEqualTo(3);
    assertThat(ns.volumesFailed).isEqualTo(1);
    assertThat(ns.message).contains("volume app2/broken/gone");
    // The Event follows the status write that ended the backup.
    assertThat(
            await(
                "nightly's PartiallyFailed event",
                () -> op.eventReasons("nightly"),
                r -> r.contains("PartiallyFailed")))
        .contains("WaitingForVolumes", "PartiallyFailed");

    // kubectl apply -f restore.yaml: into app1-copy and app2-copy. The test schedules the
    // restored pods, as a kubelet would, once they exist.
    restore(client, "copy", "nightly", Map.of("app1", "app1-copy", "app2", "app2-copy"));
    FakeKubelet later = new FakeKubelet(client, "node-1", base.resolve("kubelet-1"));
    Pod dbCopy = awaitPod(client, "app1-copy", "db");
    awaitPod(client, "app2-copy", "cache");
    assertThat(dbCopy.getSpec().getInitContainers()).isNotEmpty();
    dbCopy = later.schedule("app1-copy", "db");
    Pod cacheCopy = later.schedule("app2-copy", "cache");
    Restore copy =
        await("restore copy", () -> restore(client, "copy"), r -> finalPhase(r.getStatus()));
    assertThat(copy.getStatus().phase).as(copy.getStatus().message).isEqualTo(RunPhase.COMPLETED);
    assertThat(copy.getStatus().volumesCompleted).isEqualTo(3);
    assertThat(copy.getStatus().resultsSnapshotID).isNotNull();
    assertSameVolume(kubelet.volumeDir(db, "data"), kubelet.volumeDir(dbCopy, "data"));
    assertSameVolume(kubelet.volumeDir(db, "wal"), kubelet.volumeDir(dbCopy, "wal"));
    assertSameVolume(kubelet.volumeDir(cache, "scratch"), kubelet.volumeDir(cacheCopy, "scratch"));
    assertThat(client.configMaps().inNamespace("app1-copy").withName("settings").get().getData())
        .containsEntry("mode", "fast-app1");
    assertThat(client.secrets().inNamespace("app1-copy").withName("db-password").get()).isNotNull();
    assertThat(client.configMaps().inNamespace("unrelated-copy").list().getItems()).isEmpty();

    // A second backup, deleted: tombstones, the resource gone, the data retained and said so.
    var weeklySpec = new BackupSpec();
    weeklySpec.includedNamespaces = List.of("app2");
    weeklySpec.ttl = "240h";
    op.backup("weekly", weeklySpec);
    Backup weekly =
        await("weekly finished", () -> op.backup("weekly"), b -> finalPhase(b.getStatus()));
    var dbr = new DeleteBackupRequest();
    dbr.setMetadata(new ObjectMetaBuilder().withName("delete-weekly").withNamespace(NS).build());
    dbr.setSpec(new DeleteBackupRequestSpec());
    dbr.getSpec().backupName = "weekly";
    client.resource(dbr).create();
    DeleteBackupRequest processed =
        await(
            "deletion processed",
            () ->
                client
                    .resources(DeleteBackupRequest.class)
                    .inNamespace(NS)
                    .withName("delete-weekly")
                    .get(),
            d -> d.getStatus() != null && d.getStatus().phase == DeletionPhase.PROCESSED);
    assertThat(processed.getStatus().tombstones).isNotEmpty();
    assertThat(Instant.parse(processed.getStatus().retainedUntil))
        .isAfterOrEqualTo(Instant.parse(weekly.getStatus().expiration));
    await("weekly gone", () -> op.backup("weekly") == null ? "gone" : null, s -> true);

    // Maintenance hours later: the deleted backup's data is marked, then its deletion is deferred
    // by the bucket's retention and reported in the repository's status.
    maintainAfter(Duration.ofHours(2), "2h");
    BackupStorageLocationRepositoryStatus.MaintenanceRun run =
        maintainAfter(Duration.ofHours(7), "3h");
    assertThat(run.deferred).as(run.message).isPositive();
    assertThat(run.result).isNotEqualTo(MaintenanceResult.FAILED);

    // A new, empty cluster, the same bucket and password: sync brings nightly, not weekly.
    serverB = new ApiServer();
    clientB = serverB.client();
    opB = new OperatorFixture(clientB, op.clock);
    credentials(opB, rgw);
    opB.secret(
        "default-repository-password",
        Map.of("password", op.secretValue("default-repository-password", "password")));
    opB.bsl("default", RgwOperatorIT.spec(bucket, "Compliance", "1d"));
    operatorB = SteleOperator.start(clientB, settings(opB), -1, true, NS);
    FakeKubelet kubeletB = new FakeKubelet(clientB, "node-b", base.resolve("kubelet-b"));
    agentB = NodeAgent.start(clientB, settings(opB), node(kubeletB), NS, true);
    await("B location", () -> opB.bsl("default"), b -> b.getStatus() != null);
    await("B repository Ready", () -> opB.bslr("default"), r -> ready(r));
    Backup synced =
        await("nightly synced", () -> opB.backup("nightly"), b -> finalPhase(b.getStatus()));
    assertThat(synced.getStatus().snapshotID).isEqualTo(ns.snapshotID);
    assertThat(synced.getStatus().phase).isEqualTo(RunPhase.PARTIALLY_FAILED);
    assertThat(opB.backup("weekly")).isNull();

    restore(clientB, "again", "nightly", Map.of());
    awaitPod(clientB, "app1", "db");
    awaitPod(clientB, "app2", "cache");
    Pod dbB = kubeletB.schedule("app1", "db");
    Pod cacheB = kubeletB.schedule("app2", "cache");
    Restore again =
        await("restore again", () -> restore(clientB, "again"), r -> finalPhase(r.getStatus()));
    assertThat(again.getStatus().phase).as(again.getStatus().message).isEqualTo(RunPhase.COMPLETED);
    assertThat(again.getStatus().volumesCompleted).as(again.getStatus().message).isEqualTo(3);
    assertSameVolume(kubelet.volumeDir(db, "data"), kubeletB.volumeDir(dbB, "data"));
    assertSameVolume(kubelet.volumeDir(cache, "scratch"), kubeletB.volumeDir(cacheB, "scratch"));
    assertThat(clientB.configMaps().inNamespace("app2").withName("settings").get().getData())
        .containsEntry("mode", "fast-app2");
    System.err.printf(
        "EndToEndIT: scenario took %d ms%n",
        Duration.ofNanos(System.nanoTime() - started).toMillis());
  }

  /**
   * Moves the clock, edits the repository's maintenance frequency (a spec change wakes it) and
   * awaits a run that started at the new time — the edit's, or a periodic pass's that came first.
   */
  BackupStorageLocationRepositoryStatus.MaintenanceRun maintainAfter(
      Duration advance, String frequency) {
    op.clock.advance(advance);
    Instant from = op.clock.instant();
    // A merge patch, as `kubectl patch --type merge` sends: no resourceVersion, so the operator's
    // status writes in between cannot make it fail with 409 as a read-modify-write edit can.
    client
        .resources(BackupStorageLocationRepository.class)
        .inNamespace(NS)
        .withName("default")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"spec\":{\"maintenance\":{\"frequency\":\"" + frequency + "\"}}}");
    return await(
            "maintenance every " + frequency,
            () -> op.bslr("default").getStatus(),
            s ->
                !s.recentMaintenance.isEmpty()
                    && !Instant.parse(s.recentMaintenance.get(0).startTimestamp).isBefore(from))
        .recentMaintenance
        .get(0);
  }

  static void assertSameVolume(Path original, Path restored) throws IOException {
    deleteTree(restored.resolve(".stele"));
    TreeAssert.assertSameTree(original, restored);
  }

  static NodeSettings node(FakeKubelet kubelet) {
    return new NodeSettings(
        kubelet.node, kubelet.root, Duration.ofMillis(200), Duration.ofSeconds(1));
  }

  static void credentials(OperatorFixture fixture, Rgw rgw) {
    fixture.secret(
        "s3",
        Map.of(
            "cloud",
            "[default]\naws_access_key_id="
                + rgw.accessKey()
                + "\naws_secret_access_key="
                + rgw.secretKey()
                + "\n"));
  }

  static boolean ready(BackupStorageLocationRepository r) {
    return r.getStatus() != null && r.getStatus().phase == RepositoryPhase.READY;
  }

  static boolean phase(Backup b, RunPhase phase) {
    return b.getStatus() != null && b.getStatus().phase == phase;
  }

  static boolean finalPhase(BackupStatus s) {
    return s != null
        && List.of(RunPhase.COMPLETED, RunPhase.PARTIALLY_FAILED, RunPhase.FAILED)
            .contains(s.phase);
  }

  static boolean finalPhase(RestoreStatus s) {
    return s != null
        && List.of(RunPhase.COMPLETED, RunPhase.PARTIALLY_FAILED, RunPhase.FAILED)
            .contains(s.phase);
  }

  static void namespace(KubernetesClient c, String name) {
    c.namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
        .create();
  }

  static void configMap(KubernetesClient c, String ns, String name, Map<String, String> data) {
    c.configMaps()
        .inNamespace(ns)
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withData(data)
                .build())
        .create();
  }

  static void restore(KubernetesClient c, String name, String backup, Map<String, String> mapping) {
    var r = new Restore();
    r.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(NS).build());
    r.setSpec(new RestoreSpec());
    r.getSpec().backupName = backup;
    r.getSpec().namespaceMapping = mapping.isEmpty() ? null : mapping;
    c.resource(r).create();
  }

  static Restore restore(KubernetesClient c, String name) {
    return c.resources(Restore.class).inNamespace(NS).withName(name).get();
  }

  static Pod awaitPod(KubernetesClient c, String ns, String name) {
    return await(ns + "/" + name, () -> c.pods().inNamespace(ns).withName(name).get(), p -> true);
  }

  /** Awaits {@code what}, and logs when it came, to show where the scenario spends its time. */
  static <T> T await(String what, Supplier<T> probe, Predicate<T> done) {
    T value = Await.atMost(TIMEOUT).until(what, probe::get, done);
    System.err.printf("EndToEndIT: %s after %d ms%n", what, (System.nanoTime() - T0) / 1_000_000);
    return value;
  }

  static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
