package dev.stele.operator;

import static dev.stele.operator.OperatorFixture.NS;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stele.blob.FilesystemBlobStore;
import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupSpec;
import dev.stele.k8s.api.BackupStatus;
import dev.stele.k8s.api.PodVolumeBackup;
import dev.stele.k8s.api.PodVolumePhase;
import dev.stele.k8s.api.PodVolumeStatus;
import dev.stele.k8s.api.RunPhase;
import dev.stele.k8s.api.SteleApi;
import dev.stele.operator.backup.BackupDocument;
import dev.stele.operator.backup.BackupReconciler;
import dev.stele.repo.BlobKind;
import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import dev.stele.snapshot.Node;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.snapshot.Tree;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
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
    client.pods().inAnyNamespace().delete();
    client.resources(PodVolumeBackup.class).inAnyNamespace().delete();
    client.namespaces().delete();
    client.v1().events().inNamespace(NS).delete();
    Files.createDirectories(base.resolve("bucket"));
    op = new OperatorFixture(client);

    op.defaultRepository(OperatorFixture.filesystemLocation(base));

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
                        .equals(e.manifest().labels().get(SteleApi.BACKUP_UID_LABEL)))
            .toList();
  }

  /** A running pod on node-1 whose annotation asks for {@code volume} (an emptyDir). */
  void volumePod(String ns, String name, String volume) {
    client
        .pods()
        .inNamespace(ns)
        .resource(
            new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .addToAnnotations(SteleApi.BACKUP_VOLUMES_ANNOTATION, volume)
                .endMetadata()
                .withNewSpec()
                .withNodeName("node-1")
                .addNewContainer()
                .withName("db")
                .withImage("postgres:17")
                .endContainer()
                .addNewVolume()
                .withName(volume)
                .withNewEmptyDir()
                .endEmptyDir()
                .endVolume()
                .addNewVolume()
                .withName("config")
                .withNewConfigMap()
                .withName("settings")
                .endConfigMap()
                .endVolume()
                .endSpec()
                .withNewStatus()
                .withPhase("Running")
                .endStatus()
                .build())
        .create();
  }

  List<PodVolumeBackup> requests(String backup) {
    return client
        .resources(PodVolumeBackup.class)
        .inNamespace(NS)
        .withLabel(SteleApi.BACKUP_NAME_LABEL, backup)
        .list()
        .getItems();
  }

  /** What a node agent does: the directory becomes a snapshot, and the request says so. */
  void serve(PodVolumeBackup pvb, Path dir) throws IOException {
    try (Repository repo = openRepository()) {
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

  static Node find(Repository repo, String treeHex, String path) throws IOException {
    Id tree = Id.parse(treeHex);
    Node node = null;
    for (String part : path.split("/", -1)) {
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
    assertThat(s.phase).as(s.message).isEqualTo(RunPhase.COMPLETED);
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
    assertThat(op.reconcileBackup("nightly").getStatus().phase).isEqualTo(RunPhase.COMPLETED);

    try (Repository repo = openRepository()) {
      List<SnapshotCatalog.Entry> found = manifests(repo, done);
      assertThat(found).hasSize(1);
      var manifest = found.get(0).manifest();
      assertThat(found.get(0).id().hex()).isEqualTo(s.snapshotID);
      assertThat(manifest.labels())
          .containsEntry(SteleApi.BACKUP_NAME_LABEL, "nightly")
          .containsEntry(SteleApi.BACKUP_NAMESPACE_LABEL, NS)
          .containsEntry(SteleApi.BACKUP_PHASE_LABEL, "Completed")
          .containsEntry(SteleApi.BACKUP_ITEMS_LABEL, "7")
          .containsEntry(SteleApi.BACKUP_ERRORS_LABEL, "0")
          .containsEntry(SteleApi.BACKUP_EXPIRATION_LABEL, s.expiration);
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
    assertThat(first.phase).isEqualTo(RunPhase.COMPLETED);
    configMap("app-a", "settings", "mode", "slow");
    op.backup("second", twoNamespaces());
    BackupStatus second = op.reconcileBackup("second").getStatus();
    assertThat(second.phase).isEqualTo(RunPhase.COMPLETED);
    // The changed document, the trees on its path (resources, core, configmaps, app-a), and the
    // bookkeeping of the part and of the manifest (backup.json, backup.log and a root each).
    assertThat(second.chunksNew).isBetween(5L, 11L);
    assertThat(first.chunksNew).isGreaterThan(second.chunksNew + 5);
    op.backup("third", twoNamespaces());
    BackupStatus third = op.reconcileBackup("third").getStatus();
    // Nothing changed: only the bookkeeping is new, and the resources are the same tree.
    assertThat(third.chunksNew).isBetween(1L, 6L);
    try (Repository repo = openRepository()) {
      var catalog = new SnapshotCatalog(repo);
      assertThat(catalog.list())
          .filteredOn(e -> e.manifest().tags().contains(SteleApi.BACKUP_TAG))
          .hasSize(3);
      assertThat(find(repo, catalog.read(Id.parse(third.snapshotID)).tree(), "resources"))
          .isEqualTo(find(repo, catalog.read(Id.parse(second.snapshotID)).tree(), "resources"));
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
    volumePod("app-a", "db", "data");
    op.backup("refused", twoNamespaces());
    assertThat(op.reconcileBackup("refused").getStatus().phase)
        .isEqualTo(RunPhase.WAITING_FOR_VOLUMES);
    PodVolumeBackup pvb = requests("refused").get(0);
    pvb.setStatus(new PodVolumeStatus());
    pvb.getStatus().phase = PodVolumePhase.FAILED;
    pvb.getStatus().message = "node went away";
    client.resource(pvb).updateStatus();
    // The server refuses the manifest, and only it: the resources part was written before.
    op.refuse =
        BlobKind.SNAPSHOT.nameOf(Id.parse("00".repeat(32))).substring(0, "snapshots/".length());
    Backup failed = op.reconcileBackup("refused");
    assertThat(failed.getStatus().phase).isEqualTo(RunPhase.FAILED);
    assertThat(failed.getStatus().message)
        .contains("writing the backup manifest failed")
        .contains("storage refused to create snapshots/");
    assertThat(failed.getStatus().snapshotID).isNull();
    assertThat(failed.getStatus().errors).as("the refused manifest").isEqualTo(1);
    assertThat(op.eventReasons("refused")).contains("Failed");
    op.refuse = null;
    // Failed is final: a later pass writes nothing.
    assertThat(op.reconcileBackup("refused").getStatus().phase).isEqualTo(RunPhase.FAILED);
    try (Repository repo = openRepository()) {
      assertThat(new SnapshotCatalog(repo).list())
          .singleElement()
          .satisfies(e -> assertThat(e.manifest().tags()).containsExactly(SteleApi.RESOURCES_TAG));
    }
  }

  @Test
  void aBackupLeftInProgressByARestartFailsWithoutAManifest() throws IOException {
    // What a stopped operator leaves: the status InProgress, and no manifest.
    Backup b = op.backup("interrupted", twoNamespaces());
    var status = new BackupStatus();
    status.phase = RunPhase.IN_PROGRESS;
    status.startTimestamp = op.clock.instant().toString();
    b.setStatus(status);
    client.resource(b).updateStatus();

    Backup after = op.reconcileBackup("interrupted");
    assertThat(after.getStatus().phase).isEqualTo(RunPhase.FAILED);
    assertThat(after.getStatus().message).isEqualTo(BackupReconciler.RESTARTED);
    assertThat(op.reconcileBackup("interrupted").getStatus().phase).isEqualTo(RunPhase.FAILED);
    try (Repository repo = openRepository()) {
      assertThat(repo.list(BlobKind.SNAPSHOT)).isEmpty();
    }
  }

  @Test
  void aBackupLeftInProgressAfterItsManifestIsCompletedFromItNeverWrittenTwice()
      throws IOException {
    op.backup("almost", twoNamespaces());
    Backup done = op.reconcileBackup("almost");
    assertThat(done.getStatus().phase).isEqualTo(RunPhase.COMPLETED);
    String id = done.getStatus().snapshotID;
    // The operator stopped after the manifest was written, before the status said so.
    var status = new BackupStatus();
    status.phase = RunPhase.IN_PROGRESS;
    status.startTimestamp = done.getStatus().startTimestamp;
    done.setStatus(status);
    client.resource(done).updateStatus();

    Backup after = op.reconcileBackup("almost");
    assertThat(after.getStatus().phase).isEqualTo(RunPhase.COMPLETED);
    assertThat(after.getStatus().snapshotID).isEqualTo(id);
    assertThat(after.getStatus().items).isEqualTo(7);
    try (Repository repo = openRepository()) {
      assertThat(manifests(repo, done)).hasSize(1);
      // The manifest and the resources part.
      assertThat(repo.list(BlobKind.SNAPSHOT)).hasSize(2);
    }
  }

  @Test
  void aMissingRepositoryFailsAndANotReadyOneIsWaitedFor() {
    var spec = twoNamespaces();
    spec.repository = "nowhere";
    op.backup("typo", spec);
    Backup typo = op.reconcileBackup("typo");
    assertThat(typo.getStatus().phase).isEqualTo(RunPhase.FAILED);
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

  @Test
  void aMissingOrUnavailableLocationFailsTheBackupSayingSo() throws IOException {
    var nowhere = twoNamespaces();
    nowhere.storageLocation = "nowhere";
    op.backup("lost", nowhere);
    Backup lost = op.reconcileBackup("lost");
    assertThat(lost.getStatus().phase).isEqualTo(RunPhase.FAILED);
    assertThat(lost.getStatus().message)
        .isEqualTo(
            "BackupStorageLocation nowhere does not exist in "
                + NS
                + ": create it, or name an existing one in spec.storageLocation");
    assertThat(lost.getStatus().errors).as("the error that failed it").isEqualTo(1);

    Path file = Files.writeString(base.resolve("not-a-directory"), "x");
    op.bsl("broken", OperatorFixture.filesystemLocation(file));
    String why = op.reconcile("broken").getStatus().message;
    assertThat(why).isNotBlank();
    var broken = twoNamespaces();
    broken.storageLocation = "broken";
    op.backup("stuck", broken);
    Backup stuck = op.reconcileBackup("stuck");
    assertThat(stuck.getStatus().phase).isEqualTo(RunPhase.FAILED);
    assertThat(stuck.getStatus().message)
        .isEqualTo("BackupStorageLocation broken is Unavailable: " + why);
  }

  @Test
  void podVolumesAreWaitedForThenJoinTheBackupsSnapshot() throws IOException {
    volumePod("app-a", "db", "data");
    volumePod("other", "db", "data"); // not in the backup's namespaces
    client
        .pods()
        .inNamespace("app-b")
        .resource(
            new PodBuilder()
                .withNewMetadata()
                .withName("pending")
                .addToAnnotations(SteleApi.VELERO_BACKUP_VOLUMES_ANNOTATION, "cache")
                .endMetadata()
                .withNewSpec()
                .addNewVolume()
                .withName("cache")
                .withNewEmptyDir()
                .endEmptyDir()
                .endVolume()
                .endSpec()
                .build())
        .create();
    op.backup("full", twoNamespaces());
    Backup waiting = op.reconcileBackup("full");
    assertThat(waiting.getStatus().phase).isEqualTo(RunPhase.WAITING_FOR_VOLUMES);
    assertThat(waiting.getStatus().volumes).isEqualTo(1);
    assertThat(waiting.getStatus().resourcesSnapshotID).isNotNull();
    assertThat(waiting.getStatus().snapshotID).isNull();
    List<PodVolumeBackup> pvbs = requests("full");
    assertThat(pvbs).hasSize(1);
    var spec = pvbs.get(0).getSpec();
    assertThat(spec.node).isEqualTo("node-1");
    assertThat(spec.pod.namespace + "/" + spec.pod.name).isEqualTo("app-a/db");
    assertThat(spec.volume).isEqualTo("data");
    assertThat(spec.expiration).isEqualTo(waiting.getStatus().expiration);
    assertThat(pvbs.get(0).getMetadata().getOwnerReferences().get(0).getUid())
        .isEqualTo(waiting.getMetadata().getUid());
    // Passes before the volume is done change nothing.
    assertThat(op.reconcileBackup("full").getStatus().phase)
        .isEqualTo(RunPhase.WAITING_FOR_VOLUMES);
    assertThat(requests("full")).hasSize(1);

    Path volume = Files.createDirectories(base.resolve("volume"));
    Files.writeString(volume.resolve("pg.conf"), "max_connections = 7\n");
    serve(pvbs.get(0), volume);
    Backup done = op.reconcileBackup("full");
    BackupStatus s = done.getStatus();
    assertThat(s.phase).as(s.message).isEqualTo(RunPhase.COMPLETED);
    assertThat(s.volumesCompleted).isEqualTo(1);
    assertThat(s.items).isEqualTo(9); // the 7 objects and the two pods
    assertThat(s.warnings).isEqualTo(1);
    try (Repository repo = openRepository()) {
      String tree = new SnapshotCatalog(repo).read(Id.parse(s.snapshotID)).tree();
      Node file = find(repo, tree, "volumes/app-a/db/data/pg.conf");
      assertThat(file).isNotNull();
      assertThat(new String(repo.readChunk(file.chunks().get(0)), StandardCharsets.UTF_8))
          .isEqualTo("max_connections = 7\n");
      Node json = find(repo, tree, BackupDocument.FILE);
      BackupDocument doc = BackupDocument.decode(repo.readChunk(json.chunks().get(0)));
      assertThat(doc.phase()).isEqualTo(RunPhase.COMPLETED.value());
      assertThat(doc.resourcesSnapshot()).isEqualTo(s.resourcesSnapshotID);
      // The part written before the volumes were waited for says nothing of the backup's phase.
      String partTree = new SnapshotCatalog(repo).read(Id.parse(s.resourcesSnapshotID)).tree();
      Node partJson = find(repo, partTree, BackupDocument.FILE);
      assertThat(new String(repo.readChunk(partJson.chunks().get(0)), StandardCharsets.UTF_8))
          .doesNotContain("\"phase\"")
          .doesNotContain(RunPhase.IN_PROGRESS.value());
      assertThat(doc.warnings())
          .singleElement()
          .asString()
          .contains("pod app-b/pending is not running on a node");
      assertThat(doc.volumes())
          .singleElement()
          .satisfies(
              v -> {
                assertThat(v.path()).isEqualTo("volumes/app-a/db/data");
                assertThat(v.snapshotID())
                    .isEqualTo(requests("full").get(0).getStatus().snapshotID);
              });
      Node log = find(repo, tree, BackupDocument.LOG);
      assertThat(new String(repo.readChunk(log.chunks().get(0)), StandardCharsets.UTF_8))
          .contains("collected 9 objects")
          .contains("warning: pod app-b/pending")
          .contains("volume app-a/db/data:")
          .contains("backup Completed");
      assertThat(manifests(repo, done)).hasSize(1);
    }
  }

  @Test
  void aFailedVolumeMakesTheBackupPartiallyFailedNamingIt() throws IOException {
    volumePod("app-b", "cache", "scratch");
    op.backup("partial", twoNamespaces());
    op.reconcileBackup("partial");
    PodVolumeBackup pvb = requests("partial").get(0);
    pvb.setStatus(new PodVolumeStatus());
    pvb.getStatus().phase = PodVolumePhase.FAILED;
    pvb.getStatus().message = "no directory /var/lib/kubelet/pods/x/volumes/*/scratch";
    client.resource(pvb).updateStatus();
    BackupStatus s = op.reconcileBackup("partial").getStatus();
    assertThat(s.phase).isEqualTo(RunPhase.PARTIALLY_FAILED);
    assertThat(s.errors).isEqualTo(1);
    assertThat(s.volumesFailed).isEqualTo(1);
    assertThat(s.message).contains("volume app-b/cache/scratch: no directory");
    assertThat(s.snapshotID).isNotNull();
  }

  @Test
  void anOperatorRestartedWhileWaitingForVolumesResumesAndWritesOneManifest() throws IOException {
    volumePod("app-a", "db", "data");
    op.backup("resumed", twoNamespaces());
    assertThat(op.reconcileBackup("resumed").getStatus().phase)
        .isEqualTo(RunPhase.WAITING_FOR_VOLUMES);
    // The operator stops; meanwhile the node agent finishes the volume.
    Path volume = Files.createDirectories(base.resolve("volume"));
    Files.write(volume.resolve("blob"), new byte[] {1, 2, 3});
    serve(requests("resumed").get(0), volume);
    OperatorFixture restarted = new OperatorFixture(client);
    restarted.audits.addAll(op.audits);
    Backup done = restarted.reconcileBackup("resumed");
    assertThat(done.getStatus().phase).isEqualTo(RunPhase.COMPLETED);
    assertThat(restarted.reconcileBackup("resumed").getStatus().snapshotID)
        .isEqualTo(done.getStatus().snapshotID);
    try (Repository repo = openRepository()) {
      assertThat(manifests(repo, done)).hasSize(1);
    }
    restarted.assertWriteOnce();
  }

  @Test
  void aRequestDeletedBeforeItFinishedCountsAsAFailedVolume() {
    volumePod("app-a", "db", "data");
    op.backup("deleted", twoNamespaces());
    op.reconcileBackup("deleted");
    client.resource(requests("deleted").get(0)).delete();
    BackupStatus s = op.reconcileBackup("deleted").getStatus();
    assertThat(s.phase).isEqualTo(RunPhase.PARTIALLY_FAILED);
    assertThat(s.volumesFailed).isEqualTo(1);
    assertThat(s.message).contains("1 PodVolumeBackups were deleted before they finished");
  }
}
