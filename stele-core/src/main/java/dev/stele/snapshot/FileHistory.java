package dev.stele.snapshot;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The versions of one path across snapshots: one per distinct content, newest first, each with the
 * snapshots that hold it. A directory on the way that has the same tree id as in a snapshot already
 * looked at is not read again, so the history of a path over many snapshots of a mostly unchanged
 * tree reads few trees.
 */
public final class FileHistory {
  private FileHistory() {}

  /**
   * One version.
   *
   * @param path the exact path (as {@link SnapshotBrowser#lookup} gives it)
   * @param node the entry as the newest snapshot holding this content has it (size, time, kind)
   * @param snapshots the snapshots holding this content at the path, newest first
   */
  public record Version(String path, Node node, List<SnapshotCatalog.Entry> snapshots) {}

  /**
   * The versions of {@code path} (as a person writes it, {@link SnapshotBrowser#lookup}) in {@code
   * snapshots}; snapshots without the path are left out.
   *
   * @throws IllegalArgumentException if a backslash in {@code path} starts no escape
   */
  public static List<Version> of(
      SnapshotBrowser browser, List<SnapshotCatalog.Entry> snapshots, String path)
      throws IOException {
    List<String> names =
        SnapshotBrowser.segments(path).stream().map(FileName::parseDisplay).toList();
    List<SnapshotCatalog.Entry> newestFirst = new ArrayList<>(snapshots);
    newestFirst.sort(SnapshotCatalog.OLDEST_FIRST.reversed());
    Map<String, Optional<Node>> looked = new HashMap<>();
    Map<List<Object>, List<SnapshotCatalog.Entry>> held = new LinkedHashMap<>();
    Map<List<Object>, Node> newest = new HashMap<>();
    for (SnapshotCatalog.Entry s : newestFirst) {
      Node node = find(browser, browser.root(s.manifest()), names, 0, looked);
      if (node != null) {
        List<Object> content = content(node);
        held.computeIfAbsent(content, k -> new ArrayList<>()).add(s);
        newest.putIfAbsent(content, node);
      }
    }
    String exact = names.isEmpty() ? "/" : "/" + String.join("/", names);
    List<Version> out = new ArrayList<>();
    held.forEach(
        (content, in) -> out.add(new Version(exact, newest.get(content), List.copyOf(in))));
    return out;
  }

  /** The node at {@code names[i…]} under {@code dir}, or null; remembered by tree id and depth. */
  private static Node find(
      SnapshotBrowser browser,
      Node dir,
      List<String> names,
      int i,
      Map<String, Optional<Node>> looked)
      throws IOException {
    if (i == names.size()) {
      return dir;
    }
    if (!dir.isDirectory()) {
      return null;
    }
    String key = i + ":" + dir.subtree().hex();
    Optional<Node> known = looked.get(key);
    if (known == null) {
      Node child = browser.tree(dir).find(names.get(i));
      known =
          Optional.ofNullable(child == null ? null : find(browser, child, names, i + 1, looked));
      looked.put(key, known);
    }
    return known.orElse(null);
  }

  /** What makes two versions the same content: kind, chunks, link target, tree. */
  private static List<Object> content(Node n) {
    return List.of(
        n.kind(),
        n.chunks(),
        Objects.requireNonNullElse(n.target(), ""),
        n.subtree() == null ? "" : n.subtree().hex());
  }
}
