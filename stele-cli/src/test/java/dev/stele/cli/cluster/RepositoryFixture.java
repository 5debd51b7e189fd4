package dev.stele.cli.cluster;

import dev.stele.blob.FilesystemBlobStore;
import dev.stele.crypto.KdfParams;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.BackupStorageLocationRepositoryStatus;
import dev.stele.k8s.api.RepositoryPhase;
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
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A repository as the operator leaves one, for the commands that read it from this machine: a
 * filesystem location {@code primary} ({@code dir/bucket}), the repository {@code team-a} in it,
 * Ready, with its password Secret, and snapshots written here with stele-core from a map of paths
 * to contents, as the operator writes a backup's or a restore's snapshot.
 */
final class RepositoryFixture {
  static final String PASSWORD = "repository password from the secret";
  static final Instant MTIME = Instant.parse("2030-01-02T03:04:05Z");

  final Path repositoryDir;
  private final AuditingBlobStore store;

  RepositoryFixture(ClusterFixture k8s, Path dir) throws IOException {
    k8s.location("primary", dir);
    BackupStorageLocationRepository bslr = k8s.repository("team-a", "primary");
    k8s.secret("team-a-repository-password", "password", PASSWORD);
    repositoryDir = dir.resolve("bucket/repositories/team-a");
    store =
        new AuditingBlobStore(
            new FilesystemBlobStore(repositoryDir, Clock.systemUTC()), Clock.systemUTC());
    try (Repository repo = open(true)) {
      var status = new BackupStorageLocationRepositoryStatus();
      status.phase = RepositoryPhase.READY;
      status.repositoryID = repo.format().id();
      bslr.setStatus(status);
      k8s.updateStatus(bslr);
    }
  }

  private Repository open(boolean init) throws IOException {
    byte[] salt = new byte[16];
    new SecureRandom().nextBytes(salt);
    return init
        ? Repository.init(
            store,
            PASSWORD.toCharArray(),
            RepositoryInit.defaults(Clock.systemUTC()).withKdf(KdfParams.argon2id(64, 1, salt)))
        : Repository.open(store, PASSWORD.toCharArray(), Clock.systemUTC());
  }

  /** A snapshot holding {@code files} (path relative to the root → content); its id's hex. */
  String snapshot(Map<String, byte[]> files, String tag) throws IOException {
    Id tree;
    try (Repository repo = open(false)) {
      try (ChunkWriter writer = repo.newWriter(1)) {
        tree = directory(writer, new TreeMap<>(files));
        writer.flush();
      }
      long bytes = files.values().stream().mapToLong(b -> b.length).sum();
      Id id =
          new SnapshotCatalog(repo)
              .write(
                  new SnapshotManifest(
                      SnapshotManifest.VERSION,
                      Instant.now(),
                      "kubernetes",
                      "stele-operator",
                      List.of("/"),
                      List.of(tag),
                      null,
                      tree.hex(),
                      null,
                      new SnapshotManifest.Stats(
                          files.size(), 1, bytes, files.size(), 1, 0, 0, 0, 0),
                      Map.of()));
      store.assertNoNameWrittenTwice();
      return id.hex();
    }
  }

  /** The tree of {@code files}, whose paths are relative to it, its subdirectories first. */
  private static Id directory(ChunkWriter writer, SortedMap<String, byte[]> files)
      throws IOException {
    SortedMap<String, SortedMap<String, byte[]>> dirs = new TreeMap<>();
    List<Node> nodes = new ArrayList<>();
    for (var e : files.entrySet()) {
      int slash = e.getKey().indexOf('/');
      if (slash < 0) {
        Id chunk = writer.store(ChunkType.DATA, e.getValue());
        nodes.add(file(e.getKey(), chunk, e.getValue().length));
      } else {
        dirs.computeIfAbsent(e.getKey().substring(0, slash), d -> new TreeMap<>())
            .put(e.getKey().substring(slash + 1), e.getValue());
      }
    }
    for (var d : dirs.entrySet()) {
      Id sub = directory(writer, d.getValue());
      nodes.add(
          new Node(
              d.getKey(), Node.Kind.DIRECTORY, 0755, 0, 0, 0, 0, 0, 0, 1, 0, List.of(), sub, null));
    }
    nodes.sort(Comparator.comparing(Node::name));
    return writer.store(ChunkType.TREE, new Tree(nodes).encode());
  }

  private static Node file(String name, Id chunk, long size) {
    long mtime = MTIME.getEpochSecond() * 1_000_000_000L;
    return new Node(
        name, Node.Kind.FILE, 0644, 0, 0, mtime, mtime, 0, 0, 1, size, List.of(chunk), null, null);
  }

  /** Every file of the repository with its modification time, to see that nothing changed. */
  Map<String, FileTime> files() throws IOException {
    Map<String, FileTime> out = new TreeMap<>();
    try (Stream<Path> all = Files.walk(repositoryDir)) {
      for (Path p : all.filter(Files::isRegularFile).toList()) {
        out.put(repositoryDir.relativize(p).toString(), Files.getLastModifiedTime(p));
      }
    }
    return out;
  }
}
