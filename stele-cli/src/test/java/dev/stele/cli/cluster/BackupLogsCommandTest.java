package dev.stele.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.blob.FilesystemBlobStore;
import dev.stele.cli.Cli;
import dev.stele.cli.ExitCode;
import dev.stele.crypto.KdfParams;
import dev.stele.k8s.api.BackupStatus;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.BackupStorageLocationRepositoryStatus;
import dev.stele.k8s.api.RepositoryPhase;
import dev.stele.k8s.api.RunPhase;
import dev.stele.repo.ChunkType;
import dev.stele.repo.ChunkWriter;
import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import dev.stele.repo.RepositoryInit;
import dev.stele.repo.SnapshotManifest;
import dev.stele.snapshot.Node;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.snapshot.Tree;
import dev.stele.testing.AuditingBlobStore;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stele backup logs}: the CLI finds the backup's repository through the API (location,
 * repository, password Secret, set up as the operator leaves them), opens it from this machine and
 * prints {@code backup.log} from the root of the backup's snapshot, written here with stele-core
 * into a filesystem location. It only reads: the repository's files are unchanged afterwards.
 */
@EnableKubernetesMockClient(crud = true)
class BackupLogsCommandTest {
  private static final String PASSWORD = "repository password from the secret";
  private static final String LOG =
      """
      2030-01-02T03:04:05Z collecting configmaps in app
      2030-01-02T03:04:06Z 7 items, 0 warnings, 0 errors
      """;

  KubernetesClient client;
  @TempDir Path dir;
  ClusterFixture k8s;
  Path repositoryDir;
  String snapshot;

  @BeforeEach
  void setUp() throws IOException {
    k8s = new ClusterFixture(client, dir);
    k8s.location("primary", dir);
    BackupStorageLocationRepository bslr = k8s.repository("team-a", "primary");
    k8s.secret("team-a-repository-password", "password", PASSWORD);
    repositoryDir = dir.resolve("bucket/repositories/team-a");
    byte[] salt = new byte[16];
    new SecureRandom().nextBytes(salt);
    AuditingBlobStore store =
        new AuditingBlobStore(
            new FilesystemBlobStore(repositoryDir, Clock.systemUTC()), Clock.systemUTC());
    try (Repository repo =
        Repository.init(
            store,
            PASSWORD.toCharArray(),
            RepositoryInit.defaults(Clock.systemUTC()).withKdf(KdfParams.argon2id(64, 1, salt)))) {
      snapshot = writeBackupSnapshot(repo).hex();
      var status = new BackupStorageLocationRepositoryStatus();
      status.phase = RepositoryPhase.READY;
      status.repositoryID = repo.format().id();
      bslr.setStatus(status);
      k8s.updateStatus(bslr);
    }
    store.assertNoNameWrittenTwice();
  }

  /** A backup's snapshot as the operator leaves it: backup.log and resources/ at its root. */
  private static Id writeBackupSnapshot(Repository repo) throws IOException {
    byte[] log = LOG.getBytes(StandardCharsets.UTF_8);
    byte[] doc = "{\"kind\":\"ConfigMap\"}".getBytes(StandardCharsets.UTF_8);
    Id tree;
    try (ChunkWriter writer = repo.newWriter(1)) {
      Id logChunk = writer.store(ChunkType.DATA, log);
      Id docChunk = writer.store(ChunkType.DATA, doc);
      Id resources =
          writer.store(
              ChunkType.TREE, new Tree(List.of(file("a.json", docChunk, doc.length))).encode());
      tree =
          writer.store(
              ChunkType.TREE,
              new Tree(
                      List.of(
                          file("backup.log", logChunk, log.length),
                          new Node(
                              "resources",
                              Node.Kind.DIRECTORY,
                              0755,
                              0,
                              0,
                              0,
                              0,
                              0,
                              0,
                              1,
                              0,
                              List.of(),
                              resources,
                              null)))
                  .encode());
      writer.flush();
    }
    return new SnapshotCatalog(repo)
        .write(
            new SnapshotManifest(
                SnapshotManifest.VERSION,
                Instant.now(),
                "kubernetes",
                "stele-operator",
                List.of("/resources"),
                List.of("backup"),
                null,
                tree.hex(),
                null,
                new SnapshotManifest.Stats(2, 2, log.length + doc.length, 2, 4, 0, 0, 0, 0),
                Map.of("stele.dev/backup-name", "nightly")));
  }

  private static Node file(String name, Id chunk, long size) {
    return new Node(
        name, Node.Kind.FILE, 0644, 0, 0, 0, 0, 0, 0, 1, size, List.of(chunk), null, null);
  }

  @Test
  void printsTheLogFromTheBackupsSnapshotAndWritesNothing() throws IOException {
    BackupStatus s = ClusterFixture.status(RunPhase.COMPLETED);
    s.snapshotID = snapshot;
    s.repository = "team-a";
    k8s.backup("nightly", null, s);
    Map<String, FileTime> before = files(repositoryDir);

    Cli.Run run = k8s.run("backup", "logs", "nightly");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.stdout()).isEqualTo(LOG);
    assertThat(run.stderr()).isEmpty();
    assertThat(files(repositoryDir)).isEqualTo(before);
  }

  @Test
  void findsTheLocationsDefaultRepositoryWhenTheStatusNamesNone() {
    BackupStorageLocationRepository bslr = k8s.get(BackupStorageLocationRepository.class, "team-a");
    bslr.getMetadata().setLabels(Map.of("stele.dev/default-repository", "true"));
    client.resource(bslr).update();
    var spec = new dev.stele.k8s.api.BackupSpec();
    spec.storageLocation = "primary";
    BackupStatus s = ClusterFixture.status(RunPhase.COMPLETED);
    s.snapshotID = snapshot.substring(0, 12);
    k8s.backup("synced", spec, s);

    Cli.Run run = k8s.run("backup", "logs", "synced");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.stdout()).isEqualTo(LOG);
  }

  @Test
  void aBackupWithoutASnapshotHasNoLogYet() {
    k8s.backup("running", null, ClusterFixture.status(RunPhase.IN_PROGRESS));
    BackupStatus failed = ClusterFixture.status(RunPhase.FAILED);
    failed.message = "repository team-z does not exist";
    k8s.backup("broken", null, failed);

    Cli.Run running = k8s.run("backup", "logs", "running");
    assertThat(running.exitCode()).isEqualTo(ExitCode.NOT_FOUND);
    assertThat(running.errorLines())
        .containsExactly(
            "stele: backup running has no log yet: it is InProgress, and its log is written with"
                + " its snapshot when it finishes");

    Cli.Run broken = k8s.run("backup", "logs", "broken");
    assertThat(broken.exitCode()).isEqualTo(ExitCode.NOT_FOUND);
    assertThat(broken.errorLines())
        .containsExactly(
            "stele: backup broken failed before its snapshot was written, so the repository holds"
                + " no log of it (repository team-z does not exist)");
  }

  @Test
  void aWrongPasswordInTheSecretIsOneLine() {
    k8s.client
        .secrets()
        .inNamespace(ClusterFixture.NS)
        .withName("team-a-repository-password")
        .delete();
    k8s.secret("team-a-repository-password", "password", "not it");
    BackupStatus s = ClusterFixture.status(RunPhase.COMPLETED);
    s.snapshotID = snapshot;
    s.repository = "team-a";
    k8s.backup("nightly", null, s);

    Cli.Run run = k8s.run("backup", "logs", "nightly");

    assertThat(run.exitCode()).isEqualTo(ExitCode.WRONG_PASSWORD);
    assertThat(run.errorLines()).hasSize(1);
    assertThat(run.stdout()).isEmpty();
  }

  @Test
  void aLocationDirectoryNotOnThisMachineIsSaidSo() throws IOException {
    BackupStatus s = ClusterFixture.status(RunPhase.COMPLETED);
    s.snapshotID = snapshot;
    s.repository = "team-a";
    k8s.backup("nightly", null, s);
    Files.move(dir.resolve("bucket"), dir.resolve("moved"));

    Cli.Run run = k8s.run("backup", "logs", "nightly");

    assertThat(run.exitCode()).isEqualTo(ExitCode.NOT_FOUND);
    assertThat(run.errorLines())
        .containsExactly(
            "stele: the repository is in a directory mounted into the operator ("
                + repositoryDir
                + "), which is not on this machine");
  }

  private static Map<String, FileTime> files(Path root) throws IOException {
    Map<String, FileTime> out = new TreeMap<>();
    try (Stream<Path> all = Files.walk(root)) {
      for (Path p : all.filter(Files::isRegularFile).toList()) {
        out.put(root.relativize(p).toString(), Files.getLastModifiedTime(p));
      }
    }
    return out;
  }
}
