package dev.stele.operator;

import static dev.stele.operator.OperatorFixture.NS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.blob.FilesystemBlobStore;
import dev.stele.k8s.api.BackupStorageLocationRepositorySpec;
import dev.stele.k8s.api.BackupStorageLocationSpec;
import dev.stele.k8s.api.LocationPhase;
import dev.stele.k8s.api.MaintenanceKind;
import dev.stele.k8s.api.MaintenanceResult;
import dev.stele.k8s.api.RepositoryPhase;
import dev.stele.repo.Repository;
import dev.stele.repo.RepositoryInit;
import dev.stele.snapshot.FileBackup;
import dev.stele.snapshot.FileBackupListener;
import dev.stele.snapshot.FileBackupOptions;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The reconcilers against fabric8's CRUD mock API server, on a directory standing for a bucket. */
@EnableKubernetesMockClient(crud = true)
class FilesystemOperatorTest {
  static KubernetesClient client;

  @TempDir Path base;
  OperatorFixture op;

  @BeforeEach
  void setUp() throws IOException {
    client.resources(dev.stele.k8s.api.BackupStorageLocation.class).inNamespace(NS).delete();
    client
        .resources(dev.stele.k8s.api.BackupStorageLocationRepository.class)
        .inNamespace(NS)
        .delete();
    client.secrets().inNamespace(NS).delete();
    client.v1().events().inNamespace(NS).delete();
    Files.createDirectories(base.resolve("bucket"));
    op = new OperatorFixture(client);
  }

  @AfterEach
  void writeOnce() {
    if (!op.audits.isEmpty()) {
      op.assertWriteOnce();
    }
  }

  BackupStorageLocationSpec spec(String mode, String minimum) {
    var spec = OperatorFixture.filesystemLocation(base);
    spec.objectLock = new BackupStorageLocationSpec.ObjectLock();
    spec.objectLock.mode = mode;
    spec.objectLock.minimumRetention = minimum;
    return spec;
  }

  Path repositoryDir(String name) {
    return base.resolve("bucket/velero/repositories/" + name);
  }

  @Test
  void detectOnAStoreWithoutObjectLockIsAvailableButSaysItProtectsNothing() {
    op.bsl("default", spec("Detect", null));
    var bsl = op.reconcile("default");
    assertThat(bsl.getStatus().phase).isEqualTo(LocationPhase.AVAILABLE);
    assertThat(bsl.getStatus().protection).isEqualTo("none");
    var condition =
        bsl.getStatus().conditions.stream()
            .filter(c -> c.getType().equals("Protected"))
            .findFirst()
            .orElseThrow();
    assertThat(condition.getStatus()).isEqualTo("False");
    assertThat(condition.getReason()).isEqualTo("NoObjectLock");
    assertThat(condition.getMessage())
        .isEqualTo(
            "bucket bucket has neither versioning nor object lock: anyone with its credentials"
                + " can delete the backups; use a bucket with object lock for backups that must"
                + " survive that");
    assertThat(warnings("NoObjectLock")).isEqualTo(1);

    // Validated again: the same finding is not announced twice.
    op.clock.advance(Duration.ofMinutes(2));
    op.reconcile("default");
    assertThat(warnings("NoObjectLock")).isEqualTo(1);
  }

  @Test
  void aLockedLocationShowsItsProtectionAndNoneAskedForIsNoWarning() {
    op.bsl("locked", spec("Compliance", "30d"));
    var locked = op.reconcile("locked");
    assertThat(locked.getStatus().protection).isEqualTo("compliance 30d");
    assertThat(locked.getStatus().conditions)
        .anySatisfy(
            c -> {
              assertThat(c.getType()).isEqualTo("Protected");
              assertThat(c.getStatus()).isEqualTo("True");
            });

    op.bsl("plain", spec("none", null));
    var plain = op.reconcile("plain");
    assertThat(plain.getStatus().phase).isEqualTo(LocationPhase.AVAILABLE);
    assertThat(plain.getStatus().protection).isEqualTo("none");
    assertThat(warnings("NoObjectLock")).isZero();
  }

  private long warnings(String reason) {
    return client.v1().events().inNamespace(NS).list().getItems().stream()
        .filter(e -> "Warning".equals(e.getType()) && reason.equals(e.getReason()))
        .count();
  }

  @Test
  void locationProvisionsItsDefaultRepositoryBeforeAnyBackup() throws IOException {
    op.bsl("default", spec("None", null));
    var bsl = op.reconcile("default");
    assertThat(bsl.getStatus().phase).isEqualTo(LocationPhase.AVAILABLE);
    assertThat(bsl.getStatus().lock).isEqualTo("none");
    assertThat(bsl.getStatus().versioning).isEqualTo("Off");
    assertThat(op.eventReasons("default")).contains("Available", "DefaultRepositoryCreated");

    var bslr = op.reconcileRepository("default");
    assertThat(bslr.getStatus().phase).isEqualTo(RepositoryPhase.READY);
    assertThat(bslr.getStatus().url).isEqualTo("filesystem://bucket/velero/repositories/default");
    String password = op.secretValue("default-repository-password", "password");
    assertThat(password).hasSizeGreaterThan(40);
    try (Repository repo =
        Repository.open(
            new FilesystemBlobStore(repositoryDir("default"), op.clock),
            password.toCharArray(),
            op.clock)) {
      assertThat(repo.format().id()).isEqualTo(bslr.getStatus().repositoryID);
    }
    assertThat(op.eventReasons("default")).contains("Initialized", "Ready");
    // A second pass adopts nothing new and writes nothing.
    assertThat(op.reconcileRepository("default").getStatus().repositoryID)
        .isEqualTo(bslr.getStatus().repositoryID);
    assertThat(bslr.getStatus().snapshots).isZero();
    assertThat(bslr.getStatus().packs).isZero();
    assertThat(bslr.getStatus().packBytes).isZero();

    // A snapshot made outside the cluster is counted, with its data, at the next pass.
    Path files = Files.createDirectories(base.resolve("files"));
    Files.writeString(files.resolve("a.txt"), "some data to back up\n".repeat(1000));
    try (Repository repo =
        Repository.open(
            new FilesystemBlobStore(repositoryDir("default"), op.clock),
            password.toCharArray(),
            op.clock)) {
      new FileBackup(repo, FileBackupOptions.defaults("laptop"), FileBackupListener.NONE)
          .run(List.of(files));
    }
    var counted = op.reconcileRepository("default").getStatus();
    assertThat(counted.snapshots).isEqualTo(1);
    assertThat(counted.forgottenSnapshots).isZero();
    assertThat(counted.packs).isPositive();
    assertThat(counted.packBytes).isPositive();
  }

  @Test
  void twoRepositoriesShareOneLocation() {
    var spec = spec("Governance", "1d");
    spec.createDefaultRepository = false;
    op.bsl("main", spec);
    assertThat(op.reconcile("main").getStatus().lock).isEqualTo("governance/1d");
    op.bslr("team-a", "main");
    op.bslr("team-b", "main");
    var a = op.reconcileRepository("team-a");
    var b = op.reconcileRepository("team-b");
    assertThat(a.getStatus().phase).isEqualTo(RepositoryPhase.READY);
    assertThat(b.getStatus().phase).isEqualTo(RepositoryPhase.READY);
    assertThat(a.getStatus().lock).isEqualTo("governance/1d");
    assertThat(a.getStatus().repositoryID).isNotEqualTo(b.getStatus().repositoryID);
    assertThat(op.bslr("main")).isNull();
    assertThat(repositoryDir("team-a").resolve("stele.format")).exists();
    assertThat(repositoryDir("team-b").resolve("stele.format")).exists();
  }

  @Test
  void adoptsAnExistingRepositoryWithTheRightPasswordOnly() throws IOException {
    String id;
    try (Repository repo =
        Repository.init(
            new FilesystemBlobStore(repositoryDir("dr"), op.clock),
            "right".toCharArray(),
            RepositoryInit.defaults(op.clock).withKdf(OperatorFixture.cheapKdf()))) {
      id = repo.format().id();
    }
    var spec = spec("None", null);
    spec.createDefaultRepository = false;
    op.bsl("main", spec);
    op.reconcile("main");

    op.secret("dr-repository-password", Map.of("password", "wrong"));
    op.bslr("dr", "main");
    var wrong = op.reconcileRepository("dr");
    assertThat(wrong.getStatus().phase).isEqualTo(RepositoryPhase.NOT_READY);
    assertThat(wrong.getStatus().message)
        .contains("password in Secret dr-repository-password (key password) does not open");
    assertThat(op.eventReasons("dr")).contains("NotReady");

    op.secret("dr-repository-password", Map.of("password", "right"));
    var right = op.reconcileRepository("dr");
    assertThat(right.getStatus().phase).isEqualTo(RepositoryPhase.READY);
    assertThat(right.getStatus().repositoryID).isEqualTo(id);
    assertThat(op.eventReasons("dr")).contains("Adopted", "Ready");
  }

  @Test
  void foreignDataAndReadOnlyLocationsAreNeverOverwritten() throws IOException {
    Files.createDirectories(repositoryDir("foreign"));
    Files.writeString(repositoryDir("foreign").resolve("config"), "{\"kopia\":true}");
    var spec = spec("None", null);
    spec.createDefaultRepository = false;
    op.bsl("main", spec);
    op.reconcile("main");
    op.bslr("foreign", "main");
    var foreign = op.reconcileRepository("foreign");
    assertThat(foreign.getStatus().phase).isEqualTo(RepositoryPhase.NOT_READY);
    assertThat(foreign.getStatus().message).contains("holds data that is not a Stele repository");
    // no password was generated for it: no repository was created
    assertThat(op.secretValue("foreign-repository-password", "password")).isNull();

    var ro = spec("None", null);
    ro.accessMode = "ReadOnly";
    ro.createDefaultRepository = false;
    op.bsl("archive", ro);
    op.reconcile("archive");
    op.bslr("fresh", "archive");
    var fresh = op.reconcileRepository("fresh");
    assertThat(fresh.getStatus().phase).isEqualTo(RepositoryPhase.NOT_READY);
    assertThat(fresh.getStatus().message).contains("is ReadOnly and there is no repository");
    assertThat(repositoryDir("fresh")).doesNotExist();
  }

  @Test
  void repositoriesFollowTheirLocationToUnavailableAndBack() throws IOException {
    op.bsl("default", spec("None", null));
    op.reconcile("default");
    assertThat(op.reconcileRepository("default").getStatus().phase)
        .isEqualTo(RepositoryPhase.READY);

    Files.move(base.resolve("bucket"), base.resolve("elsewhere"));
    // not validated again before validationFrequency
    assertThat(op.reconcile("default").getStatus().phase).isEqualTo(LocationPhase.AVAILABLE);
    op.clock.advance(Duration.ofMinutes(2));
    var down = op.reconcile("default");
    assertThat(down.getStatus().phase).isEqualTo(LocationPhase.UNAVAILABLE);
    assertThat(down.getStatus().message).contains("does not exist");
    var following = op.reconcileRepository("default");
    assertThat(following.getStatus().phase).isEqualTo(RepositoryPhase.NOT_READY);
    assertThat(following.getStatus().message)
        .contains("BackupStorageLocation default is Unavailable");

    Files.move(base.resolve("elsewhere"), base.resolve("bucket"));
    op.clock.advance(Duration.ofMinutes(2));
    assertThat(op.reconcile("default").getStatus().phase).isEqualTo(LocationPhase.AVAILABLE);
    assertThat(op.reconcileRepository("default").getStatus().phase)
        .isEqualTo(RepositoryPhase.READY);
    assertThat(op.eventReasons("default"))
        .containsSubsequence("Available", "Unavailable", "Available");
  }

  @Test
  void maintenanceRunsOnScheduleAndIsRecorded() {
    op.bsl("default", spec("None", null));
    op.reconcile("default");
    op.reconcileRepository("default");
    var spec = op.bslr("default").getSpec();
    spec.maintenance = new BackupStorageLocationRepositorySpec.Maintenance();
    spec.maintenance.frequency = "1h";
    spec.maintenance.fullFrequency = "1d";
    var r = op.bslr("default");
    r.setSpec(spec);
    client.resource(r).update();

    assertThat(op.reconcileRepository("default").getStatus().recentMaintenance).isEmpty();
    op.clock.advance(Duration.ofMinutes(61));
    op.reconcile("default");
    var quick = op.reconcileRepository("default").getStatus();
    assertThat(quick.recentMaintenance).hasSize(1);
    assertThat(quick.recentMaintenance.get(0).kind).isEqualTo(MaintenanceKind.QUICK);
    assertThat(quick.recentMaintenance.get(0).result).isEqualTo(MaintenanceResult.SUCCEEDED);
    assertThat(quick.recentMaintenance.get(0).deleted).isZero();
    assertThat(quick.lastMaintenanceTime).isNotNull();

    op.clock.advance(Duration.ofHours(24));
    op.reconcile("default");
    var full = op.reconcileRepository("default").getStatus();
    full.recentMaintenance.forEach(
        m ->
            System.err.println(
                "RUN " + m.kind + " " + m.startTimestamp + " " + m.completeTimestamp));
    System.err.println("COND " + full.conditions);
    assertThat(full.recentMaintenance)
        .extracting(m -> m.kind)
        .containsExactly(MaintenanceKind.FULL, MaintenanceKind.QUICK);
    assertThat(full.lastFullMaintenanceTime).isEqualTo(full.lastMaintenanceTime);
    assertThat(op.eventReasons("default")).contains("Maintained");
  }

  @Test
  void deletionPolicyRetainKeepsAndDeleteRemovesWhatRetentionAllows() throws IOException {
    var spec = spec("Governance", "1d");
    spec.createDefaultRepository = false;
    op.bsl("main", spec);
    op.reconcile("main");
    op.bslr("kept", "main");
    var deleting = new BackupStorageLocationRepositorySpec();
    deleting.backupStorageLocation = "main";
    deleting.deletionPolicy = "Delete";
    op.bslr("gone", deleting);
    op.reconcileRepository("kept");
    op.reconcileRepository("gone");

    assertThat(op.repositories.cleanup(op.bslr("kept"), null).isRemoveFinalizer()).isTrue();
    assertThat(repositoryDir("kept").resolve("stele.format")).exists();

    // Within retention: nothing can go; reported, and the resource is let go.
    assertThat(op.repositories.cleanup(op.bslr("gone"), null).isRemoveFinalizer()).isTrue();
    assertThat(repositoryDir("gone").resolve("stele.format")).exists();
    assertThat(op.eventReasons("gone")).contains("RepositoryRetained");

    op.clock.advance(Duration.ofDays(2));
    op.reconcile("main");
    op.repositories.cleanup(op.bslr("gone"), null);
    assertThat(op.eventReasons("gone")).contains("RepositoryDeleted");
    assertThat(repositoryDir("gone").resolve("stele.format")).doesNotExist();
    assertThat(op.secretValue("gone-repository-password", "password")).isNotNull();
  }

  @Test
  void malformedResourcesAreAnsweredInTheirStatus() {
    var bad = spec("None", null);
    bad.provider = "gcs";
    op.bsl("bad", bad);
    var bsl = op.reconcile("bad");
    assertThat(bsl.getStatus().phase).isEqualTo(LocationPhase.UNAVAILABLE);
    assertThat(bsl.getStatus().message).contains("spec.provider gcs is not supported");
    assertThat(op.eventReasons("bad")).contains("Unavailable");

    var locked = spec("Compliance", null);
    op.bsl("nolock", locked);
    assertThat(op.reconcile("nolock").getStatus().message)
        .contains("needs objectLock.minimumRetention");

    op.bslr("orphan", "missing");
    var orphan = op.reconcileRepository("orphan");
    assertThat(orphan.getStatus().phase).isEqualTo(RepositoryPhase.NOT_READY);
    assertThat(orphan.getStatus().message)
        .isEqualTo("BackupStorageLocation missing does not exist in " + NS);
    assertThat(op.eventReasons("orphan")).contains("NotReady");
  }

  @Test
  void changedCreationParametersAreRefusedWithAMessage() {
    op.bsl("default", spec("None", null));
    op.reconcile("default");
    assertThat(op.reconcileRepository("default").getStatus().compressionLevel).isEqualTo(3);
    var r = op.bslr("default");
    r.getSpec().compressionLevel = 9;
    client.resource(r).update();
    var status = op.reconcileRepository("default").getStatus();
    assertThat(status.phase).isEqualTo(RepositoryPhase.READY);
    assertThat(status.message).contains("refused: compressionLevel 9").contains("created with 3");
    assertThat(status.conditions)
        .anySatisfy(
            c -> {
              assertThat(c.getType()).isEqualTo("SpecAccepted");
              assertThat(c.getStatus()).isEqualTo("False");
            });
    assertThat(op.eventReasons("default")).contains("CreationParameterChanged");
  }
}
