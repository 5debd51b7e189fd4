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
 * What changed between two snapshots. Subtrees with equal ids are skipped unread, so comparing two
 * snapshots of a mostly unchanged tree reads only the trees that differ.
 */
public final class SnapshotDiff {
  private SnapshotDiff() {}

  /**
   * One difference.
   *
   * @param kind {@code '+'} added, {@code '-'} removed, {@code 'M'} content or metadata changed
   * @param path absolute path inside the snapshots
   */
  public record Change(char kind, String path) {}

  public static List<Change> diff(Repository repo, SnapshotManifest a, SnapshotManifest b)
      throws IOException {
    SnapshotBrowser browser = new SnapshotBrowser(repo);
    List<Change> changes = new ArrayList<>();
    compare(browser, browser.root(a), browser.root(b), "/", changes);
    return changes;
  }

  private static void compare(
      SnapshotBrowser browser, Node left, Node right, String path, List<Change> out)
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
          out.add(new Change('M', childPath + "/"));
        }
        compare(browser, l, r, childPath, out);
      } else if (l.kind() != r.kind()) {
        report(browser, l, childPath, '-', out);
        report(browser, r, childPath, '+', out);
      } else if (!sameContentAndMetadata(l, r)) {
        out.add(new Change('M', childPath));
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
  private static void report(
      SnapshotBrowser browser, Node node, String path, char kind, List<Change> out)
      throws IOException {
    out.add(new Change(kind, node.isDirectory() ? path + "/" : path));
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
