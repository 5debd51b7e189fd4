package dev.stele.snapshot;

import dev.stele.repo.Id;
import dev.stele.repo.SnapshotManifest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.TreeMap;

/**
 * Trees and chunks in memory, content addressed as a repository's are, for tests of what reads
 * snapshots through an {@link SnapshotBrowser.ObjectSource}; it counts the trees read.
 */
final class MemoryTrees implements SnapshotBrowser.ObjectSource {
  private final Map<Id, byte[]> objects = new HashMap<>();
  final List<Id> treesRead = new ArrayList<>();

  @Override
  public byte[] tree(Id id) {
    treesRead.add(id);
    return get(id);
  }

  @Override
  public byte[] chunk(Id id) {
    return get(id);
  }

  private byte[] get(Id id) {
    byte[] b = objects.get(id);
    if (b == null) {
      throw new NoSuchElementException(id.hex());
    }
    return b;
  }

  /**
   * A snapshot taken at {@code time} of files given as path → content (a path ending in {@code /}
   * is an empty directory); every file's mtime is {@code mtime} seconds.
   */
  SnapshotCatalog.Entry snapshot(Instant time, String host, Map<String, String> files, long mtime) {
    TreeMap<String, Object> root = new TreeMap<>();
    files.forEach((path, content) -> put(root, path.substring(1), content));
    Id tree = store(root, mtime);
    SnapshotManifest m =
        new SnapshotManifest(
            SnapshotManifest.VERSION,
            time,
            host,
            null,
            List.of("/"),
            List.of(),
            null,
            tree.hex(),
            null,
            null,
            Map.of());
    return new SnapshotCatalog.Entry(id(time.toString().getBytes(StandardCharsets.UTF_8)), m);
  }

  @SuppressWarnings("unchecked")
  private static void put(Map<String, Object> dir, String path, String content) {
    int slash = path.indexOf('/');
    if (slash < 0) {
      dir.put(path, content);
      return;
    }
    Map<String, Object> sub =
        (TreeMap<String, Object>)
            dir.computeIfAbsent(path.substring(0, slash), k -> new TreeMap<>());
    if (slash + 1 < path.length()) {
      put(sub, path.substring(slash + 1), content);
    }
  }

  @SuppressWarnings("unchecked")
  private Id store(Map<String, Object> dir, long mtime) {
    List<Node> nodes = new ArrayList<>();
    for (Map.Entry<String, Object> e : dir.entrySet()) {
      long nanos = mtime * 1_000_000_000L;
      if (e.getValue() instanceof String content) {
        byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
        Id chunk = id(bytes);
        objects.put(chunk, bytes);
        nodes.add(
            new Node(
                e.getKey(),
                Node.Kind.FILE,
                0644,
                0,
                0,
                nanos,
                nanos,
                1,
                1,
                1,
                bytes.length,
                bytes.length == 0 ? List.of() : List.of(chunk),
                null,
                null));
      } else {
        Id sub = store((Map<String, Object>) e.getValue(), mtime);
        nodes.add(
            new Node(
                e.getKey(), Node.Kind.DIRECTORY, 0755, 0, 0, 0, 0, 1, 1, 1, 0, null, sub, null));
      }
    }
    byte[] encoded = new Tree(nodes).encode();
    Id id = id(encoded);
    objects.put(id, encoded);
    return id;
  }

  private static Id id(byte[] bytes) {
    try {
      return Id.of(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }
}
