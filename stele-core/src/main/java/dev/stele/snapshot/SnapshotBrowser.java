package dev.stele.snapshot;

import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import dev.stele.repo.SnapshotManifest;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads what a snapshot holds: trees, nodes by path, file contents, from a repository or from
 * anything else that gives trees and chunks by id ({@link ObjectSource}, such as a repository
 * server).
 */
public final class SnapshotBrowser {
  private final ObjectSource objects;

  /** Where a browser reads trees and chunks: their plain bytes by id. */
  public interface ObjectSource {
    /** The encoded tree {@code id} (docs/format.md §10). */
    byte[] tree(Id id) throws IOException;

    /** The plain content of data chunk {@code id}. */
    byte[] chunk(Id id) throws IOException;
  }

  public SnapshotBrowser(Repository repo) {
    this(
        new ObjectSource() {
          @Override
          public byte[] tree(Id id) throws IOException {
            return repo.readChunk(id);
          }

          @Override
          public byte[] chunk(Id id) throws IOException {
            return repo.readChunk(id);
          }
        });
  }

  public SnapshotBrowser(ObjectSource objects) {
    this.objects = objects;
  }

  /** A node and its absolute path inside the snapshot. */
  public record Entry(String path, Node node) {}

  /** The root directory of a snapshot, as a node named "". */
  public Node root(SnapshotManifest snapshot) {
    return new Node(
        "",
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
        null,
        Id.parse(snapshot.tree()),
        null);
  }

  public Tree tree(Node directory) throws IOException {
    if (!directory.isDirectory()) {
      throw new IllegalArgumentException(
          FileName.display(directory.name()) + " is not a directory");
    }
    return Tree.decode(directory.subtree(), objects.tree(directory.subtree()));
  }

  /**
   * The node at {@code path} ("/" or "" for the root), reading only the trees on the way.
   *
   * @see #lookup
   */
  public Node find(SnapshotManifest snapshot, String path) throws IOException {
    return lookup(snapshot, path).node();
  }

  /**
   * The entry at {@code path}, a path as a person writes it: the form {@link FileName#display}
   * shows ({@code \xHH} for a byte that is not UTF-8, {@code \\} for a backslash; a name with
   * neither is itself). The entry's path is exact, as {@link #list} gives paths.
   *
   * @throws NoSuchFileException if the snapshot has no such path
   * @throws IllegalArgumentException if a backslash in {@code path} starts no escape
   */
  public Entry lookup(SnapshotManifest snapshot, String path) throws IOException {
    Node node = root(snapshot);
    StringBuilder exact = new StringBuilder();
    for (String segment : segments(path)) {
      String name = FileName.parseDisplay(segment);
      Node next = node.isDirectory() ? tree(node).find(name) : null;
      if (next == null) {
        throw new NoSuchFileException(path, null, "not in the snapshot");
      }
      node = next;
      exact.append('/').append(name);
    }
    return new Entry(exact.length() == 0 ? "/" : exact.toString(), node);
  }

  /** Entries under {@code start} (itself first), depth first in name order. */
  public List<Entry> list(Node start, String startPath, boolean recursive) throws IOException {
    List<Entry> out = new ArrayList<>();
    if (!start.name().isEmpty()) {
      out.add(new Entry(startPath, start));
    }
    if (start.isDirectory()) {
      listChildren(start, startPath, recursive, out);
    }
    return out;
  }

  private void listChildren(Node dir, String dirPath, boolean recursive, List<Entry> out)
      throws IOException {
    for (Node child : tree(dir).nodes()) {
      String childPath = join(dirPath, child.name());
      out.add(new Entry(childPath, child));
      if (recursive && child.isDirectory()) {
        listChildren(child, childPath, true, out);
      }
    }
  }

  /** Writes a file's content to {@code out}, chunk by chunk. */
  public void cat(Node file, OutputStream out) throws IOException {
    if (!file.isFile()) {
      throw new IllegalArgumentException(FileName.display(file.name()) + " is not a file");
    }
    for (Id chunk : file.chunks()) {
      out.write(objects.chunk(chunk));
    }
  }

  static List<String> segments(String path) {
    List<String> out = new ArrayList<>();
    for (String s : path.split("/", -1)) {
      if (!s.isEmpty() && !s.equals(".")) {
        out.add(s);
      }
    }
    return out;
  }

  static String join(String dir, String name) {
    return dir.endsWith("/") ? dir + name : dir + "/" + name;
  }
}
