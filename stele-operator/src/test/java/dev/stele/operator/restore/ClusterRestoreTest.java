package dev.stele.operator.restore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupSpec;
import dev.stele.k8s.api.Restore;
import dev.stele.k8s.api.RestoreSpec;
import dev.stele.k8s.api.RestoreStatus;
import dev.stele.k8s.api.RunPhase;
import dev.stele.k8s.testing.ApiServer;
import dev.stele.operator.ClusterWorld;
import dev.stele.repo.Repository;
import dev.stele.snapshot.SnapshotCatalog;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Restores of cluster-scoped objects into the test API server: what a restore of some namespaces
 * brings along, how volumes and bindings follow the namespace mapping, and the wait for definitions
 * to be Established.
 */
class ClusterRestoreTest {
  @TempDir Path base;
  final ApiServer server = new ApiServer();
  final KubernetesClient client = server.client();
  RestoreFixture op;

  @BeforeEach
  void setUp() throws Exception {
    Files.createDirectories(base.resolve("bucket"));
    client
        .namespaces()
        .resource(
            new NamespaceBuilder()
                .withNewMetadata()
                .withName(RestoreFixture.NS)
                .endMetadata()
                .build())
        .create();
    op = new RestoreFixture(client, base);
    op.restores = new RestoreReconciler(client, op.settings, Duration.ofSeconds(1));
    ClusterWorld.create(client, "app");
  }

  @AfterEach
  void tearDown() {
    try {
      op.assertWriteOnce();
    } finally {
      client.close();
      server.close();
    }
  }

  /**
   * A backup of namespace app with every cluster-scoped object, then the cluster emptied of them.
   */
  Backup backupThenEmptyTheCluster() {
    var spec = new BackupSpec();
    spec.includedNamespaces = List.of("app");
    spec.includeClusterResources = true;
    Backup done = op.backup("everything", spec);
    assertThat(done.getStatus().phase).as(done.getStatus().message).isEqualTo(RunPhase.COMPLETED);
    client.genericKubernetesResources(ClusterWorld.WIDGETS).inNamespace("app").delete();
    client.apiextensions().v1().customResourceDefinitions().delete();
    client.rbac().clusterRoleBindings().delete();
    client.rbac().clusterRoles().delete();
    client.storage().v1().storageClasses().delete();
    client.persistentVolumes().delete();
    return done;
  }

  RestoreSpec into(String ns) {
    var spec = new RestoreSpec();
    spec.backupName = "everything";
    spec.includedNamespaces = List.of("app");
    spec.namespaceMapping = Map.of("app", ns);
    return spec;
  }

  RestoreDocument resultsOf(Restore restore) throws Exception {
    try (Repository repo = op.openRepository()) {
      List<SnapshotCatalog.Entry> found = op.results(repo, restore);
      assertThat(found).hasSize(1);
      return Results.read(repo, found.get(0).manifest());
    }
  }

  @Test
  void aRestoreOfSomeNamespacesBringsWhatTheirObjectsNeedWithTheMappingFollowed() throws Exception {
    backupThenEmptyTheCluster();

    op.restore("moved", into("new"));
    RestoreStatus s = op.pass("moved").getStatus();

    assertThat(s.phase).as(s.message).isEqualTo(RunPhase.COMPLETED);
    assertThat(client.apiextensions().v1().customResourceDefinitions().list().getItems())
        .extracting(c -> c.getMetadata().getName())
        .containsExactly("widgets.example.com");
    assertThat(
            client
                .genericKubernetesResources(ClusterWorld.WIDGETS)
                .inNamespace("new")
                .withName("blue")
                .get())
        .isNotNull();
    assertThat(client.rbac().clusterRoles().list().getItems())
        .extracting(r -> r.getMetadata().getName())
        .containsExactly("db-reader");
    var binding = client.rbac().clusterRoleBindings().withName("db-reader").get();
    assertThat(binding.getSubjects().get(0).getNamespace()).isEqualTo("new");
    assertThat(client.rbac().clusterRoleBindings().withName("unrelated").get()).isNull();
    assertThat(client.storage().v1().storageClasses().list().getItems())
        .extracting(c -> c.getMetadata().getName())
        .containsExactly("fast");
    PersistentVolume volume = client.persistentVolumes().withName("pv-data").get();
    assertThat(volume.getSpec().getClaimRef().getNamespace()).isEqualTo("new");
    assertThat(volume.getSpec().getClaimRef().getName()).isEqualTo("data");
    assertThat(volume.getSpec().getClaimRef().getUid()).isNull();
    assertThat(volume.getSpec().getClaimRef().getResourceVersion()).isNull();
    assertThat(client.persistentVolumes().withName("pv-free").get()).isNull();
    assertThat(
            client
                .persistentVolumeClaims()
                .inNamespace("new")
                .withName("data")
                .get()
                .getSpec()
                .getVolumeName())
        .isEqualTo("pv-data");

    // The definition came first, and was Established before anything else was created.
    List<String> order =
        resultsOf(op.get(Restore.class, "moved")).objects().stream()
            .map(RestoreDocument.Item::resource)
            .toList();
    assertThat(order.get(0)).isEqualTo("customresourcedefinitions.apiextensions.k8s.io");
    assertThat(order)
        .containsSubsequence(
            "namespaces",
            "storageclasses.storage.k8s.io",
            "persistentvolumes",
            "persistentvolumeclaims",
            "serviceaccounts",
            "clusterroles.rbac.authorization.k8s.io",
            "clusterrolebindings.rbac.authorization.k8s.io",
            "widgets.example.com");
  }

  @Test
  void aVolumeThatExistsIsLeftAsItIsEvenWhenTheRestoreUpdates() throws Exception {
    backupThenEmptyTheCluster();
    op.restore("first", into("new"));
    assertThat(op.pass("first").getStatus().phase).isEqualTo(RunPhase.COMPLETED);
    String version =
        client.persistentVolumes().withName("pv-data").get().getMetadata().getResourceVersion();

    RestoreSpec again = into("again");
    again.existingResourcePolicy = "update";
    op.restore("again", again);
    RestoreStatus s = op.pass("again").getStatus();

    PersistentVolume volume = client.persistentVolumes().withName("pv-data").get();
    assertThat(volume.getMetadata().getResourceVersion()).isEqualTo(version);
    assertThat(volume.getSpec().getClaimRef().getNamespace()).isEqualTo("new");
    assertThat(resultsOf(op.get(Restore.class, "again")).objects())
        .filteredOn(i -> i.resource().equals("persistentvolumes"))
        .singleElement()
        .satisfies(
            i -> {
              assertThat(i.result()).isEqualTo(RestoreDocument.SKIPPED);
              assertThat(i.message())
                  .contains("a PersistentVolume that exists is always left as it is");
            });
    assertThat(s.phase).as(s.message).isEqualTo(RunPhase.COMPLETED);
  }

  @Test
  void customResourcesOfADefinitionNeverEstablishedFailWithOneClearLine() throws Exception {
    backupThenEmptyTheCluster();
    // Another definition of the group already has kind Widget: the restored one is refused its
    // names and never Established.
    client
        .apiextensions()
        .v1()
        .customResourceDefinitions()
        .resource(ClusterWorld.crd("gizmos", "Widget"))
        .create();

    op.restore("clash", into("new"));
    Restore done = op.pass("clash");

    assertThat(done.getStatus().phase).isEqualTo(RunPhase.PARTIALLY_FAILED);
    assertThat(done.getStatus().errors).isEqualTo(2);
    var widget =
        resultsOf(done).objects().stream()
            .filter(i -> i.resource().equals("widgets.example.com"))
            .findFirst()
            .orElseThrow();
    assertThat(widget.result()).isEqualTo(RestoreDocument.FAILED);
    assertThat(widget.message())
        .isEqualTo(
            "not created: its CustomResourceDefinition widgets.example.com is not Established");
    assertThat(resultsOf(done).errors())
        .contains(
            "customresourcedefinition widgets.example.com is not Established after 1 s"
                + " (NamesAccepted is False: \"Widget\" is already in use by gizmos.example.com):"
                + " its custom resources are not restored");
    assertThat(client.persistentVolumeClaims().inNamespace("new").withName("data").get())
        .isNotNull();
  }
}
