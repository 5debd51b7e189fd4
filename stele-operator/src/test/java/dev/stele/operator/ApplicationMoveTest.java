package dev.stele.operator;

import static dev.stele.operator.OperatorFixture.NS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.LocationPhase;
import dev.stele.k8s.api.PodVolumeBackup;
import dev.stele.k8s.api.PodVolumeRestore;
import dev.stele.k8s.api.RepositoryPhase;
import dev.stele.k8s.api.Restore;
import dev.stele.k8s.api.RestoreSpec;
import dev.stele.k8s.api.RunPhase;
import dev.stele.k8s.testing.ApiServer;
import dev.stele.k8s.testing.ExecResult;
import dev.stele.operator.kube.Settings;
import dev.stele.operator.nodeagent.NodeSettings;
import dev.stele.operator.nodeagent.PodVolumeBackupReconciler;
import dev.stele.operator.nodeagent.PodVolumeRestoreReconciler;
import dev.stele.operator.restore.RestoreReconciler;
import dev.stele.operator.sync.BackupSyncReconciler;
import dev.stele.testing.RandomTree;
import dev.stele.testing.TreeAssert;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 13's proof: an application that needs cluster-scoped objects (a CRD and a custom resource
 * of it, a ServiceAccount bound by a ClusterRoleBinding to a ClusterRole, a claim with its volume
 * and class: {@link ClusterWorld}) and a database-like pod with a pod volume, frozen by a
 * pre-backup hook and thawed by a post-backup hook, is backed up in cluster A and restored into
 * cluster B, which is empty but for the same location and repository password and got the backup by
 * sync. Two test API servers are the clusters, a directory the bucket, {@link FakeKubelet}s the
 * nodes; the reconcilers and node agents are called pass by pass. Cluster B takes a moment to
 * establish a CRD, as a real one does, so a custom resource created too early fails.
 */
class ApplicationMoveTest {
  /**
   * The database pod's hooks: freeze its file system before its volume is read, thaw it after
   * (Velero's annotations; commands as JSON arrays, never run through a shell).
   */
  static final Map<String, String> DB_HOOK_ANNOTATIONS =
      Map.of(
          "pre.hook.backup.velero.io/command", "[\"/sbin/fsfreeze\", \"--freeze\", \"/data\"]",
          "post.hook.backup.velero.io/command", "[\"/sbin/fsfreeze\", \"--unfreeze\", \"/data\"]");

  @TempDir Path base;
  final ApiServer serverA = new ApiServer();
  final KubernetesClient clientA = serverA.client();
  final ApiServer serverB = new ApiServer();
  final KubernetesClient clientB = serverB.client();
  OperatorFixture a;
  OperatorFixture b;

  @BeforeEach
  void setUp() throws IOException {
    Files.createDirectories(base.resolve("bucket"));
    a = new OperatorFixture(clientA);
    b = new OperatorFixture(clientB);
  }

  @AfterEach
  void tearDown() {
    try {
      a.assertWriteOnce();
      b.assertWriteOnce();
    } finally {
      clientA.close();
      serverA.close();
      clientB.close();
      serverB.close();
    }
  }

  static String container(Pod pod) {
    return pod.getSpec().getContainers().get(0).getName();
  }

  static NodeSettings node(FakeKubelet kubelet) {
    return new NodeSettings(kubelet.node, kubelet.root, Duration.ofMillis(100), Duration.ZERO);
  }

  @Test
  void anApplicationWithItsClusterScopedObjectsMovesToAnEmptyClusterAndComesUpInOrder()
      throws IOException {
    // Cluster A: the application, and a database pod whose volume holds data.
    Lifecycle.world(a, Lifecycle.location(base, null, null));
    ClusterWorld.create(clientA, "app");
    FakeKubelet kubeletA = new FakeKubelet(clientA, "node-a", base.resolve("kubelet-a"));
    kubeletA.run("app", "db", List.of("data"), "backup.velero.io/backup-volumes");
    Pod db =
        clientA
            .pods()
            .inNamespace("app")
            .withName("db")
            .edit(
                p -> {
                  p.getSpec().setServiceAccountName("db");
                  p.getMetadata().getAnnotations().putAll(DB_HOOK_ANNOTATIONS);
                  return p;
                });
    Path data = kubeletA.volumeDir(db, "data");
    new RandomTree(13).files(40).writeTo(data);
    // What the database's container is asked to run, and how far its volume's backup was then.
    List<String> ran = new CopyOnWriteArrayList<>();
    serverA.onExec(
        (pod, container, argv) -> {
          ran.add(
              pod.getMetadata().getName()
                  + "/"
                  + container
                  + " "
                  + argv
                  + " volumes: "
                  + clientA
                      .resources(PodVolumeBackup.class)
                      .inNamespace(NS)
                      .list()
                      .getItems()
                      .stream()
                      .map(v -> v.getStatus() == null ? "-" : String.valueOf(v.getStatus().phase))
                      .toList());
          return ExecResult.ok("");
        });

    a.backup("app", Lifecycle.appSpec("24h"));
    assertThat(a.reconcileBackup("app").getStatus().phase).isEqualTo(RunPhase.WAITING_FOR_VOLUMES);
    Settings settingsA = Lifecycle.settings(a);
    var agentA = new PodVolumeBackupReconciler(clientA, settingsA, node(kubeletA));
    for (PodVolumeBackup pvb :
        clientA.resources(PodVolumeBackup.class).inNamespace(NS).list().getItems()) {
      agentA.reconcile(pvb);
    }
    Backup backedUp = a.reconcileBackup("app");
    assertThat(backedUp.getStatus().phase)
        .as(backedUp.getStatus().message)
        .isEqualTo(RunPhase.COMPLETED);
    // Frozen before its volume was asked for, thawed once it was read.
    assertThat(ran)
        .containsExactly(
            "db/" + container(db) + " [/sbin/fsfreeze, --freeze, /data] volumes: []",
            "db/" + container(db) + " [/sbin/fsfreeze, --unfreeze, /data] volumes: [Completed]");
    assertThat(backedUp.getStatus().hookStatus.hooksAttempted).isEqualTo(2);
    assertThat(backedUp.getStatus().hookStatus.hooksFailed).isZero();

    // Cluster B: empty; the same location and password; a CRD takes a moment to be Established.
    serverB.establishAfter(Duration.ofSeconds(2));
    b.secret(
        "default-repository-password",
        Map.of("password", a.secretValue("default-repository-password", "password")));
    b.bsl("default", Lifecycle.location(base, null, null));
    assertThat(b.reconcile("default").getStatus().phase).isEqualTo(LocationPhase.AVAILABLE);
    assertThat(b.reconcileRepository("default").getStatus().phase).isEqualTo(RepositoryPhase.READY);
    Settings settingsB = Lifecycle.settings(b);
    new BackupSyncReconciler(clientB, settingsB).reconcile(b.bslr("default"));
    assertThat(b.backup("app").getStatus().phase).isEqualTo(RunPhase.COMPLETED);

    var restore = new Restore();
    restore.setMetadata(new ObjectMetaBuilder().withName("move").withNamespace(NS).build());
    restore.setSpec(new RestoreSpec());
    restore.getSpec().backupName = "app";
    restore.getSpec().namespaceMapping = Map.of("app", "prod");
    clientB.resource(restore).create();
    RestoreReconciler restores = new RestoreReconciler(clientB, settingsB);
    restores.reconcile(restoreInB());
    assertThat(restoreInB().getStatus().phase)
        .as(restoreInB().getStatus().message)
        .isEqualTo(RunPhase.WAITING_FOR_VOLUMES);
    FakeKubelet kubeletB = new FakeKubelet(clientB, "node-b", base.resolve("kubelet-b"));
    Pod dbB = kubeletB.schedule("prod", "db");
    var agentB = new PodVolumeRestoreReconciler(clientB, settingsB, node(kubeletB));
    for (PodVolumeRestore pvr :
        clientB.resources(PodVolumeRestore.class).inNamespace(NS).list().getItems()) {
      assertThat(agentB.reconcile(pvr)).isNull();
    }
    restores.reconcile(restoreInB());
    Restore done = restoreInB();
    assertThat(done.getStatus().phase).as(done.getStatus().message).isEqualTo(RunPhase.COMPLETED);
    assertThat(done.getStatus().errors).isZero();

    // Everything came up in order: the definition first (and Established: the widget would have
    // been refused otherwise), the namespace, storage, identities and their permissions, then
    // configuration and workloads, the custom resource after its definition.
    List<String> created =
        serverB.created().stream()
            .filter(p -> !p.contains("/namespaces/" + NS + "/") && !p.contains("/events/"))
            .toList();
    assertThat(created)
        .containsSubsequence(
            "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com",
            "/api/v1/namespaces/prod",
            "/apis/storage.k8s.io/v1/storageclasses/fast",
            "/api/v1/persistentvolumes/pv-data",
            "/api/v1/namespaces/prod/persistentvolumeclaims/data",
            "/api/v1/namespaces/prod/serviceaccounts/db",
            "/apis/rbac.authorization.k8s.io/v1/clusterroles/db-reader",
            "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/db-reader",
            "/api/v1/namespaces/prod/configmaps/settings",
            "/api/v1/namespaces/prod/pods/db",
            "/apis/example.com/v1/namespaces/prod/widgets/blue");
    assertThat(created)
        .noneMatch(p -> p.endsWith("/gadgets.example.com"))
        .noneMatch(p -> p.endsWith("/pv-free"))
        .noneMatch(p -> p.endsWith("/slow"))
        .noneMatch(p -> p.endsWith("/unrelated") || p.endsWith("/other-role"));

    // The volume and its claim bind; the binding names the account where it now lives.
    PersistentVolume volume = clientB.persistentVolumes().withName("pv-data").get();
    assertThat(volume.getSpec().getClaimRef().getNamespace()).isEqualTo("prod");
    assertThat(volume.getSpec().getClaimRef().getName()).isEqualTo("data");
    assertThat(volume.getSpec().getClaimRef().getUid()).isNull();
    assertThat(
            clientB
                .persistentVolumeClaims()
                .inNamespace("prod")
                .withName("data")
                .get()
                .getSpec()
                .getVolumeName())
        .isEqualTo("pv-data");
    var binding = clientB.rbac().clusterRoleBindings().withName("db-reader").get();
    assertThat(binding.getSubjects().get(0).getNamespace()).isEqualTo("prod");
    assertThat(binding.getRoleRef().getName()).isEqualTo("db-reader");
    assertThat(
            clientB
                .pods()
                .inNamespace("prod")
                .withName("db")
                .get()
                .getSpec()
                .getServiceAccountName())
        .isEqualTo("db");

    // The database's volume, byte for byte.
    Path restored = kubeletB.volumeDir(dbB, "data");
    NodeAgentTest.deleteTree(restored.resolve(".stele"));
    TreeAssert.assertSameTree(data, restored);
  }

  Restore restoreInB() {
    return clientB.resources(Restore.class).inNamespace(NS).withName("move").get();
  }
}
