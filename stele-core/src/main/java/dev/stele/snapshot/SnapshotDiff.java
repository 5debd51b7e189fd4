package dev.stele.snapshot;

import dev.stele.repo.Repository;
import dev.stele.repo.SnapshotManifest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What changed between two snapshots, read through a {@link SnapshotBrowser} (so from a repository
 * or a repository server alike). Subtrees with equal ids are skipped unread, so comparing two
 * snapshots of a mostly unchanged tree reads only the trees that differ.
 */
public final class SnapshotDiff {
  private SnapshotDiff() {}

  /**
   * One difference.
   *
   * @param kind {@code '+'} added, {@code '-'} removed, {@code 'M'} content or metadata changed
   * @param path absolute path inside the snapshots; a directory's ends in {@code /}
   * @param before the node in the first snapshot, or null if added
   * @param after the node in the second snapshot, or null if removed
   */
  public record Change(char kind, String path, Node before, Node after) {}

  /** Where the changes go, in path order, as they are found. */
  public interface Sink {
    void change(Change change) throws IOException;
  }

  public static List<Change> diff(Repository repo, SnapshotManifest a, SnapshotManifest b)
      throws IOException {
    return diff(new SnapshotBrowser(repo), a, b);
  }

  public static List<Change> diff(SnapshotBrowser browser, SnapshotManifest a, SnapshotManifest b)
      throws IOException {
    List<Change> changes = new ArrayList<>();
    diff(browser, a, b, changes::add);
    return changes;
  }

  /** Gives each change to {@code out} as it is found, holding none of them. */
  public static void diff(SnapshotBrowser browser, SnapshotManifest a, SnapshotManifest b, Sink out)
      throws IOException {
    compare(browser, browser.root(a), browser.root(b), "/", out);
  }

  private static void compare(SnapshotBrowser browser, Node left, Node right, String path, Sink out)
      throws IOException {
    if (Objects.equals(left.subtree(), right.subtree())) {
      return;
    }
    Map<String, Node> before = byName(browser.tree(left));
    Map<String, Node> after = byName(browser.tree(right));
    TreeMap<String, Boolean> names = new TreeMap<>();
    before.keySet().forEach(n -> names.put(n, true));
    after.keySet().forEach(n -> names.put(n, true));
    for (String name : names.keySet()) {
      Node l = before.get(name);
      Node r = after.get(name);
      String childPath = SnapshotBrowser.join(path, name);
      if (l == null) {
        report(browser, r, childPath, '+', out);
      } else if (r == null) {
        report(browser, l, childPath, '-', out);
      } else if (l.isDirectory() && r.isDirectory()) {
        if (l.mode() != r.mode() || l.uid() != r.uid() || l.gid() != r.gid()) {
          out.change(new Change('M', childPath + "/", l, r));
        }
        compare(browser, l, r, childPath, out);
      } else if (l.kind() != r.kind()) {
        report(browser, l, childPath, '-', out);
        report(browser, r, childPath, '+', out);
      } else if (!sameContentAndMetadata(l, r)) {
        out.change(new Change('M', childPath, l, r));
      }
    }
  }

  private static boolean sameContentAndMetadata(Node l, Node r) {
    return l.chunks().equals(r.chunks())
        && Objects.equals(l.target(), r.target())
        && l.mode() == r.mode()
        && l.uid() == r.uid()
        && l.gid() == r.gid()
        && l.mtimeNanos() == r.mtimeNanos();
  }

  /** Reports a node and, for a directory, everything under it. */
  private static void report(SnapshotBrowser browser, Node node, String path, char kind, Sink out)
      throws IOException {
    out.change(
        new Change(
            kind,
            node.isDirectory() ? path + "/" : path,
            kind == '-' ? node : null,
            kind == '+' ? node : null));
    if (node.isDirectory()) {
      for (Node child : browser.tree(node).nodes()) {
        report(browser, child, SnapshotBrowser.join(path, child.name()), kind, out);
      }
    }
  }

  private static Map<String, Node> byName(Tree tree) {
    Map<String, Node> map = new TreeMap<>();
    tree.nodes().forEach(n -> map.put(n.name(), n));
    return map;
  }
}
