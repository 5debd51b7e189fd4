package dev.stele.operator.backup;

import dev.stele.repo.ChunkType;
import dev.stele.repo.ChunkWriter;
import dev.stele.repo.Id;
import dev.stele.snapshot.Node;
import dev.stele.snapshot.Tree;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A directory tree built in memory from small documents and from subtrees already in the
 * repository, then written as tree chunks: the resources subtree (one JSON document each, built by
 * {@link ResourceCollector}) and every snapshot {@link SmallSnapshot} writes (backup.json,
 * backup.log, a backup's view of its volumes, whose subtrees are the volume snapshots' own, a
 * restore's results). Nodes carry no times or owners, so an unchanged directory encodes to the same
 * tree and is stored once.
 *
 * <p>Not thread-safe.
 */
public final class TreeBuilder {
  private final Map<String, TreeBuilder> dirs = new TreeMap<>();
  private final Map<String, Node> nodes = new TreeMap<>();

  /** The subdirectory {@code name}, created when missing. */
  public TreeBuilder dir(String name) {
    return dirs.computeIfAbsent(name, n -> new TreeBuilder());
  }

  /** Stores {@code content} as one data chunk (deduplicated) and adds it as file {@code name}. */
  public void file(String name, byte[] content, ChunkWriter writer) throws IOException {
    Id id = writer.store(ChunkType.DATA, content);
    nodes.put(name, fileNode(name, content.length, List.of(id)));
  }

  /** Adds file {@code name} whose content is the chunks already stored. */
  public void file(String name, long size, List<Id> chunks) {
    nodes.put(name, fileNode(name, size, chunks));
  }

  /** Adds directory {@code name} whose content is the tree chunk {@code tree}, already stored. */
  public void subtree(String name, Id tree) {
    nodes.put(name, dirNode(name, tree));
  }

  /** Writes this directory and those under it; returns the id of its tree chunk. */
  public Id write(ChunkWriter writer) throws IOException {
    List<Node> all = new ArrayList<>(nodes.values());
    for (var e : dirs.entrySet()) {
      all.add(dirNode(e.getKey(), e.getValue().write(writer)));
    }
    return writer.store(ChunkType.TREE, new Tree(all).encode());
  }

  /**
   * Directories {@link #write} writes: this one and those made with {@link #dir} under it (not the
   * subtrees, already stored).
   */
  public long directories() {
    long count = 1;
    for (TreeBuilder dir : dirs.values()) {
      count += dir.directories();
    }
    return count;
  }

  private static Node fileNode(String name, long size, List<Id> chunks) {
    return new Node(name, Node.Kind.FILE, 0644, 0, 0, 0, 0, 0, 0, 1, size, chunks, null, null);
  }

  private static Node dirNode(String name, Id tree) {
    return new Node(name, Node.Kind.DIRECTORY, 0755, 0, 0, 0, 0, 0, 0, 1, 0, List.of(), tree, null);
  }
}
