package dev.stele.operator;

import static dev.stele.operator.OperatorFixture.NS;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stele.blob.FilesystemBlobStore;
import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupSpec;
import dev.stele.k8s.api.BackupStatus;
import dev.stele.k8s.api.BackupStorageLocationSpec;
import dev.stele.k8s.api.StelApi;
import dev.stele.repo.BlobKind;
import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import dev.stele.snapshot.Node;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.snapshot.Tree;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Backups of API resources, the backup reconciler called directly, on a directory bucket. */
@EnableKubernetesMockClient(crud = true)
class BackupOperatorTest {
  static KubernetesClient client;

  @TempDir Path base;
  OperatorFixture op;

  @BeforeEach
  void setUp() throws IOException {
    client.resources(Backup.class).inAnyNamespace().delete();
    client.resources(dev.stele.k8s.api.BackupStorageLocation.class).inNamespace(NS).delete();
    client
        .resources(dev.stele.k8s.api.BackupStorageLocationRepository.class)
        .inNamespace(NS)
        .delete();
    client.secrets().inAnyNamespace().delete();
    client.configMaps().inAnyNamespace().delete();
    client.apps().deployments().inAnyNamespace().delete();
    client.namespaces().delete();
    client.v1().events().inNamespace(NS).delete();
    Files.createDirectories(base.resolve("bucket"));
    op = new OperatorFixture(client);

    var spec = new BackupStorageLocationSpec();
    spec.provider = "filesystem";
    spec.config = Map.of("path", base.toString());
    spec.objectStorage = new BackupStorageLocationSpec.ObjectStorage();
    spec.objectStorage.bucket = "bucket";
    spec.objectStorage.prefix = "velero";
    op.bsl("default", spec);
    assertThat(op.reconcile("default").getStatus().phase).isEqualTo("Available");
    assertThat(op.reconcileRepository("default").getStatus().phase).isEqualTo("Ready");

    for (String ns : List.of(NS, "app-a", "app-b", "other")) {
      client
          .namespaces()
          .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
          .create();
    }
    for (String ns : List.of("app-a", "app-b", "other")) {
      configMap(ns, "settings", "mode", "fast");
      client
          .secrets()
          .inNamespace(ns)
          .resource(
              new SecretBuilder()
                  .withNewMetadata()
                  .withName("token")
                  .endMetadata()
                  .addToStringData("token", "s3cr3t-" + ns)
                  .build())
          .create();
    }
    client
        .apps()
        .deployments()
        .inNamespace("app-b")
        .resource(
            new DeploymentBuilder()
                .withNewMetadata()
                .withName("web")
                .withLabels(Map.of("app", "web"))
                .withManagedFields(
                    new ManagedFieldsEntryBuilder()
                        .withManager("kubectl")
                        .withOperation("Apply")
                        .build())
                .endMetadata()
                .withNewSpec()
                .withReplicas(2)
                .withNewSelector()
                .addToMatchLabels("app", "web")
                .endSelector()
                .withNewTemplate()
                .withNewMetadata()
                .addToLabels("app", "web")
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("web")
                .withImage("nginx:1.27")
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .withNewStatus()
                .withReplicas(2)
                .withReadyReplicas(2)
                .endStatus()
                .build())
        .create();
  }

  @AfterEach
  void writeOnce() {
    op.assertWriteOnce();
  }

  void configMap(String ns, String name, String key, String value) {
    client
        .configMaps()
        .inNamespace(ns)
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name)
                .withManagedFields(
                    new ManagedFieldsEntryBuilder()
                        .withManager("kubectl")
                        .withOperation("Apply")
                        .build())
                .endMetadata()
                .addToData(key, value)
                .build())
        .createOr(r -> r.update());
  }

  BackupSpec twoNamespaces() {
    var spec = new BackupSpec();
    spec.includedNamespaces = List.of("app-a", "app-b");
    spec.ttl = "24h";
    return spec;
  }

  Repository openRepository() throws IOException {
    String password = op.secretValue("default-repository-password", "password");
    return Repository.open(
        new FilesystemBlobStore(base.resolve("bucket/velero/repositories/default"), op.clock),
        password.toCharArray(),
        op.clock);
  }

  /** Manifests in the repository that name this backup's uid. */
  List<SnapshotCatalog.Entry> manifests(Repository repo, Backup backup) throws IOException {
    return new SnapshotCatalog(repo)
        .list().stream()
            .filter(
                e ->
                    backup
                        .getMetadata()
                        .getUid()
                        .equals(e.manifest().labels().get(StelApi.BACKUP_UID_LABEL)))
            .toList();
  }

  static Node find(Repository repo, String treeHex, String path) throws IOException {
    Id tree = Id.parse(treeHex);
    Node node = null;
    for (String part : path.split("/")) {
      Tree t = Tree.decode(tree, repo.readChunk(tree));
      node = t.find(part);
      if (node == null) {
        return null;
      }
      tree = node.subtree();
    }
    return node;
  }

  static JsonNode document(Repository repo, String treeHex, String path) throws IOException {
    Node node = find(repo, treeHex, path);
    assertThat(node).as(path).isNotNull();
    assertThat(node.chunks()).hasSize(1);
    return new ObjectMapper().readTree(repo.readChunk(node.chunks().get(0)));
  }

  @Test
  void backsUpTwoNamespacesIntoOneSnapshotWrittenOnce() throws IOException {
    op.backup("nightly", twoNamespaces());
    Backup done = op.reconcileBackup("nightly");
    BackupStatus s = done.getStatus();
    assertThat(s.phase).as(s.message).isEqualTo(BackupStatus.COMPLETED);
    // 2 namespaces + 2 configmaps + 2 secrets + 1 deployment
    assertThat(s.items).isEqualTo(7);
    assertThat(s.errors).isZero();
    assertThat(s.repository).isEqualTo("default");
    assertThat(s.manifest).isEqualTo("snapshots/" + s.snapshotID);
    assertThat(Instant.parse(s.expiration))
        .isEqualTo(Instant.parse(s.startTimestamp).plus(Duration.ofHours(24)));
    assertThat(s.completionTimestamp).isNotNull();
    assertThat(op.eventReasons("nightly")).contains("Completed");

    // A later pass changes nothing and writes nothing.
    assertThat(op.reconcileBackup("nightly").getStatus().phase).isEqualTo(BackupStatus.COMPLETED);

    try (Repository repo = openRepository()) {
      List<SnapshotCatalog.Entry> found = manifests(repo, done);
      assertThat(found).hasSize(1);
      var manifest = found.get(0).manifest();
      assertThat(found.get(0).id().hex()).isEqualTo(s.snapshotID);
      assertThat(manifest.labels())
          .containsEntry(StelApi.BACKUP_NAME_LABEL, "nightly")
          .containsEntry(StelApi.BACKUP_NAMESPACE_LABEL, NS)
          .containsEntry(StelApi.BACKUP_PHASE_LABEL, "Completed")
          .containsEntry(StelApi.BACKUP_ITEMS_LABEL, "7")
          .containsEntry(StelApi.BACKUP_ERRORS_LABEL, "0")
          .containsEntry(StelApi.BACKUP_EXPIRATION_LABEL, s.expiration);
      assertThat(manifest.expires()).isEqualTo(Instant.parse(s.expiration));
      String tree = manifest.tree();

      JsonNode cm = document(repo, tree, "resources/core/configmaps/app-a/settings.json");
      assertThat(cm.at("/data/mode").asText()).isEqualTo("fast");
      assertThat(cm.at("/kind").asText()).isEqualTo("ConfigMap");
      assertThat(cm.at("/metadata/namespace").asText()).isEqualTo("app-a");
      JsonNode deployment = document(repo, tree, "resources/apps/deployments/app-b/web.json");
      assertThat(deployment.at("/spec/replicas").asInt()).isEqualTo(2);
      assertThat(deployment.at("/metadata/labels/app").asText()).isEqualTo("web");
      for (JsonNode doc : List.of(cm, deployment)) {
        JsonNode meta = doc.get("metadata");
        assertThat(doc.has("status")).isFalse();
        for (String field :
            List.of("uid", "resourceVersion", "managedFields", "creationTimestamp", "generation")) {
          assertThat(meta.has(field)).as(field).isFalse();
        }
      }
      assertThat(
              document(repo, tree, "resources/core/secrets/app-b/token.json").at("/kind").asText())
          .isEqualTo("Secret");
      assertThat(
              document(repo, tree, "resources/core/namespaces/_cluster/app-a.json")
                  .at("/metadata/name")
                  .asText())
          .isEqualTo("app-a");
      // Not selected: another namespace, and its Namespace object.
      assertThat(find(repo, tree, "resources/core/configmaps/other")).isNull();
      assertThat(find(repo, tree, "resources/core/namespaces/_cluster/other.json")).isNull();
    }
  }

  @Test
  void aSecondBackupStoresOnlyWhatChanged() throws IOException {
    op.backup("first", twoNamespaces());
    BackupStatus first = op.reconcileBackup("first").getStatus();
    assertThat(first.phase).isEqualTo(BackupStatus.COMPLETED);
    configMap("app-a", "settings", "mode", "slow");
    op.backup("second", twoNamespaces());
    BackupStatus second = op.reconcileBackup("second").getStatus();
    assertThat(second.phase).isEqualTo(BackupStatus.COMPLETED);
    // The changed document and the trees on its path (root, resources, core, configmaps, app-a).
    assertThat(second.chunksNew).isBetween(1L, 6L);
    assertThat(first.chunksNew).isGreaterThan(second.chunksNew + 5);
    op.backup("third", twoNamespaces());
    assertThat(op.reconcileBackup("third").getStatus().chunksNew).isZero();
    try (Repository repo = openRepository()) {
      assertThat(new SnapshotCatalog(repo).list()).hasSize(3);
      String tree = new SnapshotCatalog(repo).read(Id.parse(second.snapshotID)).tree();
      assertThat(
              document(repo, tree, "resources/core/configmaps/app-a/settings.json")
                  .at("/data/mode")
                  .asText())
          .isEqualTo("slow");
    }
  }

  @Test
  void aRefusedManifestFailsTheBackupAndNothingSaysItExists() throws IOException {
    op.refuse =
        BlobKind.SNAPSHOT.nameOf(Id.parse("00".repeat(32))).substring(0, "snapshots/".length());
    op.backup("refused", twoNamespaces());
    Backup failed = op.reconcileBackup("refused");
    assertThat(failed.getStatus().phase).isEqualTo(BackupStatus.FAILED);
    assertThat(failed.getStatus().message)
        .contains("writing the backup manifest failed")
        .contains("storage refused to create snapshots/");
    assertThat(failed.getStatus().snapshotID).isNull();
    assertThat(op.eventReasons("refused")).contains("Failed");
    op.refuse = null;
    // Failed is final: a later pass writes nothing.
    assertThat(op.reconcileBackup("refused").getStatus().phase).isEqualTo(BackupStatus.FAILED);
    try (Repository repo = openRepository()) {
      assertThat(repo.list(BlobKind.SNAPSHOT)).isEmpty();
    }
  }

  @Test
  void aBackupLeftInProgressByARestartFailsWithoutAManifest() throws IOException {
    // What a stopped operator leaves: the status InProgress, and no manifest.
    Backup b = op.backup("interrupted", twoNamespaces());
    var status = new BackupStatus();
    status.phase = BackupStatus.IN_PROGRESS;
    status.startTimestamp = op.clock.instant().toString();
    b.setStatus(status);
    client.resource(b).updateStatus();

    Backup after = op.reconcileBackup("interrupted");
    assertThat(after.getStatus().phase).isEqualTo(BackupStatus.FAILED);
    assertThat(after.getStatus().message).isEqualTo(BackupReconciler.RESTARTED);
    assertThat(op.reconcileBackup("interrupted").getStatus().phase).isEqualTo(BackupStatus.FAILED);
    try (Repository repo = openRepository()) {
      assertThat(repo.list(BlobKind.SNAPSHOT)).isEmpty();
    }
  }

  @Test
  void aBackupLeftInProgressAfterItsManifestIsCompletedFromItNeverWrittenTwice()
      throws IOException {
    op.backup("almost", twoNamespaces());
    Backup done = op.reconcileBackup("almost");
    assertThat(done.getStatus().phase).isEqualTo(BackupStatus.COMPLETED);
    String id = done.getStatus().snapshotID;
    // The operator stopped after the manifest was written, before the status said so.
    var status = new BackupStatus();
    status.phase = BackupStatus.IN_PROGRESS;
    status.startTimestamp = done.getStatus().startTimestamp;
    done.setStatus(status);
    client.resource(done).updateStatus();

    Backup after = op.reconcileBackup("almost");
    assertThat(after.getStatus().phase).isEqualTo(BackupStatus.COMPLETED);
    assertThat(after.getStatus().snapshotID).isEqualTo(id);
    assertThat(after.getStatus().items).isEqualTo(7);
    try (Repository repo = openRepository()) {
      assertThat(manifests(repo, done)).hasSize(1);
      assertThat(repo.list(BlobKind.SNAPSHOT)).hasSize(1);
    }
  }

  @Test
  void aMissingRepositoryFailsAndANotReadyOneIsWaitedFor() {
    var spec = twoNamespaces();
    spec.repository = "nowhere";
    op.backup("typo", spec);
    Backup typo = op.reconcileBackup("typo");
    assertThat(typo.getStatus().phase).isEqualTo(BackupStatus.FAILED);
    assertThat(typo.getStatus().message).contains("nowhere does not exist");

    op.bslr("later", "missing-location");
    op.reconcileRepository("later");
    var waiting = twoNamespaces();
    waiting.repository = "later";
    op.backup("patient", waiting);
    Backup patient = op.reconcileBackup("patient");
    assertThat(patient.getStatus().phase).isNull();
    assertThat(patient.getStatus().message).contains("waiting for repository later");
  }
}
