package dev.stele.maintenance;

import dev.stele.repo.Id;
import dev.stele.repo.Index;
import dev.stele.repo.Repository;
import dev.stele.snapshot.Node;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.snapshot.Tree;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What of each snapshot cannot be restored: the files with a chunk in no index, and the directories
 * whose tree cannot be read, by path. Each tree is judged once, however many snapshots share it.
 */
public final class SnapshotDamage {
  private final Repository repo;
  private final Map<Id, Lost> seen = new HashMap<>();

  SnapshotDamage(Repository repo) {
    this.repo = repo;
  }

  /**
   * A snapshot and what of it is lost.
   *
   * @param missingFiles absolute paths of files with a chunk in no index
   * @param missingTrees absolute paths of directories whose tree cannot be read (nothing below them
   *     is known)
   */
  public record State(
      SnapshotCatalog.Entry snapshot, List<String> missingFiles, List<String> missingTrees) {
    public boolean complete() {
      return missingFiles.isEmpty() && missingTrees.isEmpty();
    }
  }

  /** Paths relative to one tree; "" is the tree itself. */
  private record Lost(List<String> files, List<String> trees) {}

  List<State> states(List<SnapshotCatalog.Entry> snapshots) throws IOException {
    Index index = repo.loadIndex();
    List<State> states = new ArrayList<>();
    for (SnapshotCatalog.Entry s : snapshots) {
      Lost lost = lost(Id.parse(s.manifest().tree()), index);
      states.add(new State(s, absolute(lost.files()), absolute(lost.trees())));
    }
    return states;
  }

  private Lost lost(Id treeId, Index index) {
    Lost known = seen.get(treeId);
    if (known != null) {
      return known;
    }
    Lost lost;
    try {
      Tree tree = Tree.decode(treeId, repo.readChunk(treeId));
      List<String> files = new ArrayList<>();
      List<String> trees = new ArrayList<>();
      for (Node node : tree.nodes()) {
        if (node.isDirectory()) {
          Lost below = lost(node.subtree(), index);
          below.files().forEach(f -> files.add(join(node.name(), f)));
          below.trees().forEach(t -> trees.add(join(node.name(), t)));
        } else if (node.chunks().stream().anyMatch(c -> index.find(c) == null)) {
          files.add(node.name());
        }
      }
      lost = new Lost(List.copyOf(files), List.copyOf(trees));
    } catch (IOException e) {
      lost = new Lost(List.of(), List.of(""));
    }
    seen.put(treeId, lost);
    return lost;
  }

  private static String join(String name, String below) {
    return below.isEmpty() ? name : name + "/" + below;
  }

  private static List<String> absolute(List<String> relative) {
    return relative.stream().map(p -> "/" + p).toList();
  }
}
