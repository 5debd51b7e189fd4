package dev.stele.server;

import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import dev.stele.snapshot.Node;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.snapshot.Tree;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Per user, the trees and chunks reachable from the snapshots that user may read: the only objects
 * the server hands out by id. Computed when first needed and kept until the user's set of readable
 * snapshots changes (a snapshot added or forgotten, a rule changed), which each request checks.
 *
 * <p>Concurrency: safe for the server's threads; two requests of one user that find no set may both
 * compute it, and the last one kept is as good as the other.
 */
final class Reachable {
  /** The trees and the file chunks reachable from a set of snapshots. */
  record Objects(Set<Id> trees, Set<Id> chunks) {}

  private record Cached(Set<Id> snapshots, Objects objects) {}

  private final Repository repo;
  private final Map<String, Cached> byUser = new ConcurrentHashMap<>();

  Reachable(Repository repo) {
    this.repo = repo;
  }

  /** What {@code readable} (the snapshots {@code user} may read now) reach. */
  Objects of(String user, List<SnapshotCatalog.Entry> readable) throws IOException {
    Set<Id> key = readable.stream().map(SnapshotCatalog.Entry::id).collect(Collectors.toSet());
    Cached cached = byUser.get(user);
    if (cached != null && cached.snapshots().equals(key)) {
      return cached.objects();
    }
    Set<Id> trees = new HashSet<>();
    Set<Id> chunks = new HashSet<>();
    Deque<Id> todo = new ArrayDeque<>();
    for (SnapshotCatalog.Entry e : readable) {
      todo.add(Id.parse(e.manifest().tree()));
    }
    while (!todo.isEmpty()) {
      Id tree = todo.pop();
      if (!trees.add(tree)) {
        continue;
      }
      for (Node n : Tree.decode(tree, repo.readChunk(tree)).nodes()) {
        if (n.isDirectory()) {
          todo.push(n.subtree());
        } else {
          chunks.addAll(n.chunks());
        }
      }
    }
    Objects objects = new Objects(Set.copyOf(trees), Set.copyOf(chunks));
    byUser.put(user, new Cached(key, objects));
    return objects;
  }
}
