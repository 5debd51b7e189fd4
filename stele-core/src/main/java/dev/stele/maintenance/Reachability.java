package dev.stele.maintenance;

import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import dev.stele.repo.SnapshotManifest;
import dev.stele.snapshot.Node;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.snapshot.Tree;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Every chunk (file data and trees) that live snapshots reach, each with the latest instant until
 * which some snapshot needs it.
 *
 * <p>Snapshots are walked in order of decreasing expiry, so the first visit of a tree carries the
 * latest expiry of any snapshot that reaches it and each tree is read once.
 */
final class Reachability {
  private final Map<Id, Instant> needed = new HashMap<>();
  private final List<String> problems = new ArrayList<>();
  private long trees;

  private Reachability() {}

  /**
   * Walks every snapshot in {@code live}. A tree that cannot be read becomes a {@link #problems
   * problem}: the walk is then incomplete, and nothing may be deleted on the strength of it.
   */
  static Reachability of(Repository repo, List<SnapshotCatalog.Entry> live, Duration minimum)
      throws IOException {
    Reachability r = new Reachability();
    List<SnapshotCatalog.Entry> byExpiry = new ArrayList<>(live);
    byExpiry.sort(
        Comparator.comparing((SnapshotCatalog.Entry e) -> expiry(e.manifest(), minimum))
            .reversed());
    for (SnapshotCatalog.Entry e : byExpiry) {
      r.walk(repo, e, expiry(e.manifest(), minimum));
    }
    return r;
  }

  /** Until when a snapshot's data must be kept: its expiry, or its time plus the minimum. */
  static Instant expiry(SnapshotManifest m, Duration minimum) {
    return m.retainUntil(minimum);
  }

  private void walk(Repository repo, SnapshotCatalog.Entry snapshot, Instant until) {
    Deque<Id> pending = new ArrayDeque<>();
    Id root = Id.parse(snapshot.manifest().tree());
    if (needed.putIfAbsent(root, until) == null) {
      pending.push(root);
    }
    while (!pending.isEmpty()) {
      Id treeId = pending.pop();
      Tree tree;
      try {
        tree = Tree.decode(treeId, repo.readChunk(treeId));
        trees++;
      } catch (IOException e) {
        String problem =
            "snapshot "
                + snapshot.id().shortHex()
                + ": tree "
                + treeId.shortHex()
                + ": "
                + e.getMessage();
        problems.add(problem);
        continue;
      }
      for (Node node : tree.nodes()) {
        if (node.isDirectory()) {
          if (needed.putIfAbsent(node.subtree(), until) == null) {
            pending.push(node.subtree());
          }
        } else {
          for (Id chunk : node.chunks()) {
            needed.putIfAbsent(chunk, until);
          }
        }
      }
    }
  }

  boolean reaches(Id chunk) {
    return needed.containsKey(chunk);
  }

  /** Until when {@code chunk} is needed, or null if no live snapshot reaches it. */
  Instant neededUntil(Id chunk) {
    return needed.get(chunk);
  }

  Map<Id, Instant> all() {
    return needed;
  }

  List<String> problems() {
    return problems;
  }

  long trees() {
    return trees;
  }
}
