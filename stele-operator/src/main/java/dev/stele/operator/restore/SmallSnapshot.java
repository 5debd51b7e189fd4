package dev.stele.operator.restore;

import dev.stele.blob.BlobInfo;
import dev.stele.blob.Retention;
import dev.stele.repo.ChunkType;
import dev.stele.repo.ChunkWriter;
import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import dev.stele.repo.RepositoryFormat;
import dev.stele.repo.SnapshotManifest;
import dev.stele.snapshot.Node;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.snapshot.Tree;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Writes a snapshot of a few small files held in memory ({@code path → bytes}, such as {@code
 * restore.json}): one data chunk per file, one tree chunk per directory, then the manifest, once.
 * Nodes carry no times, so equal files in equal directories are stored once.
 *
 * <p>Before the manifest exists, packs it reuses, the format and the key blobs are made to last as
 * long as it needs (write-once.md's invariant), as a backup does.
 */
final class SmallSnapshot {
  private SmallSnapshot() {}

  /** A directory being built. */
  private static final class Dir {
    final Map<String, Dir> dirs = new TreeMap<>();
    final Map<String, Node> files = new TreeMap<>();
  }

  /**
   * Writes the snapshot.
   *
   * @param path the manifest's source path, such as {@code /restore}
   * @param expires when it may be forgotten, or null (the repository's minimum retention)
   * @return the snapshot's id
   */
  static Id write(
      Repository repo,
      Map<String, byte[]> files,
      String path,
      List<String> tags,
      Map<String, String> labels,
      Instant expires)
      throws IOException {
    Instant now = repo.clock().instant();
    var minimum = repo.format().minimumRetention();
    Instant until = expires != null ? expires : minimum == null ? null : now.plus(minimum);
    repo.reloadIndex();
    repo.loadIndex();
    long bytes = 0;
    long[] dirs = new long[1];
    Id tree;
    long chunksNew;
    long bytesNew;
    long bytesStored;
    try (ChunkWriter writer = repo.newWriter(1, until)) {
      Dir root = new Dir();
      for (var file : files.entrySet()) {
        String[] parts = file.getKey().split("/");
        Dir dir = root;
        for (int i = 0; i < parts.length - 1; i++) {
          dir = dir.dirs.computeIfAbsent(parts[i], n -> new Dir());
        }
        byte[] data = file.getValue();
        Id chunk = writer.store(ChunkType.DATA, data);
        String name = parts[parts.length - 1];
        dir.files.put(
            name,
            new Node(
                name,
                Node.Kind.FILE,
                0644,
                0,
                0,
                0,
                0,
                0,
                0,
                1,
                data.length,
                List.of(chunk),
                null,
                null));
        bytes += data.length;
      }
      tree = store(writer, root, dirs);
      writer.flush();
      extendReused(repo, writer, until);
      chunksNew = writer.chunksStored();
      bytesNew = writer.bytesNew();
      bytesStored = writer.bytesStored();
    }
    double seconds = Math.max(0, repo.clock().millis() - now.toEpochMilli()) / 1000.0;
    var manifest =
        new SnapshotManifest(
            SnapshotManifest.VERSION,
            now,
            "kubernetes",
            "stele-operator",
            List.of(path),
            tags,
            null,
            tree.hex(),
            expires,
            new SnapshotManifest.Stats(
                files.size(),
                dirs[0],
                bytes,
                files.size(),
                chunksNew,
                bytesNew,
                bytesStored,
                0,
                seconds),
            labels);
    return new SnapshotCatalog(repo).write(manifest);
  }

  private static Id store(ChunkWriter writer, Dir dir, long[] count) throws IOException {
    List<Node> nodes = new ArrayList<>(dir.files.values());
    for (var e : dir.dirs.entrySet()) {
      Id sub = store(writer, e.getValue(), count);
      nodes.add(
          new Node(
              e.getKey(), Node.Kind.DIRECTORY, 0755, 0, 0, 0, 0, 0, 0, 1, 0, List.of(), sub, null));
    }
    count[0]++;
    return writer.store(ChunkType.TREE, new Tree(nodes).encode());
  }

  private static void extendReused(Repository repo, ChunkWriter writer, Instant until)
      throws IOException {
    if (until == null || repo.format().retentionMode() == Retention.Mode.NONE) {
      return;
    }
    List<String> names = new ArrayList<>(new TreeSet<>(writer.reusedPacks()));
    names.add(RepositoryFormat.BLOB);
    for (BlobInfo key : repo.store().list("keys/")) {
      names.add(key.name());
    }
    for (String name : names) {
      repo.ensureRetained(name, until);
    }
  }
}
