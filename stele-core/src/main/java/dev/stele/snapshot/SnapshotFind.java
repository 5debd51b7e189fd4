package dev.stele.snapshot;

import dev.stele.repo.SnapshotManifest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds entries by name or path pattern ({@link Glob}: {@code *.log}, {@code **}{@code
 * /etc/*.conf}) across snapshots, read through a {@link SnapshotBrowser} (a repository or a
 * repository server alike). A directory met again at the same path with the same tree id, in this
 * snapshot or an earlier one of the same search, is not read or walked again: its matches are those
 * found the first time, as trees are content addressed.
 *
 * <p>Concurrency: one search, one thread.
 */
public final class SnapshotFind {
  private final SnapshotBrowser browser;
  private final List<Glob> patterns;

  /** Matches under a directory, by its tree id and path: entries and nested results. */
  private final Map<String, List<Object>> walked = new HashMap<>();

  /** One snapshot's matches, depth first in name order. */
  public record Found(SnapshotCatalog.Entry snapshot, List<SnapshotBrowser.Entry> matches) {}

  /** Where each snapshot's matches go, as they are found. */
  public interface Sink {
    void found(Found found) throws IOException;
  }

  /**
   * Which snapshots to search and how many matches to give.
   *
   * @param ids only these snapshots, if not empty
   * @param hosts only snapshots of these hosts, if not empty
   * @param paths only snapshots with one of these source paths, if not empty
   * @param newestFirst search the newest snapshot first, rather than the oldest
   * @param limit stop after this many matches in all; 0 for no limit
   */
  public record Selection(
      Set<String> ids, Set<String> hosts, Set<String> paths, boolean newestFirst, int limit) {
    public Selection {
      ids = Set.copyOf(ids);
      hosts = Set.copyOf(hosts);
      paths = Set.copyOf(paths);
      if (limit < 0) {
        throw new IllegalArgumentException("a limit is 0 (none) or more");
      }
    }

    /** Of {@code live} (oldest first), those selected, in the order they are searched. */
    public List<SnapshotCatalog.Entry> apply(List<SnapshotCatalog.Entry> live) {
      List<SnapshotCatalog.Entry> out =
          new ArrayList<>(live.stream().filter(this::selects).toList());
      out.sort(
          newestFirst ? SnapshotCatalog.OLDEST_FIRST.reversed() : SnapshotCatalog.OLDEST_FIRST);
      return out;
    }

    private boolean selects(SnapshotCatalog.Entry e) {
      SnapshotManifest m = e.manifest();
      return (ids.isEmpty() || ids.contains(e.id().hex()))
          && (hosts.isEmpty() || hosts.contains(m.host()))
          && (paths.isEmpty() || m.paths().stream().anyMatch(paths::contains));
    }
  }

  /**
   * A search for entries matching any of {@code patterns}.
   *
   * @throws IllegalArgumentException if there is no pattern, or an empty one
   */
  public SnapshotFind(SnapshotBrowser browser, List<String> patterns, boolean ignoreCase) {
    if (patterns.isEmpty()) {
      throw new IllegalArgumentException("give a pattern to find");
    }
    this.browser = browser;
    this.patterns = patterns.stream().map(p -> Glob.compile(p, ignoreCase)).toList();
  }

  /**
   * Searches the snapshots {@code selection} picks of {@code live}, giving {@code out} each one
   * that has matches, until the limit.
   */
  public void search(List<SnapshotCatalog.Entry> live, Selection selection, Sink out)
      throws IOException {
    int left = selection.limit() == 0 ? Integer.MAX_VALUE : selection.limit();
    for (SnapshotCatalog.Entry snapshot : selection.apply(live)) {
      List<SnapshotBrowser.Entry> matches = in(snapshot.manifest());
      if (matches.size() > left) {
        matches = matches.subList(0, left);
      }
      if (!matches.isEmpty()) {
        out.found(new Found(snapshot, matches));
        left -= matches.size();
      }
      if (left == 0) {
        return;
      }
    }
  }

  /** The entries of one snapshot that match, depth first in name order. */
  public List<SnapshotBrowser.Entry> in(SnapshotManifest snapshot) throws IOException {
    List<SnapshotBrowser.Entry> out = new ArrayList<>();
    flatten(walk(browser.root(snapshot), "/"), out);
    return out;
  }

  private List<Object> walk(Node dir, String path) throws IOException {
    String key = dir.subtree().hex() + path;
    List<Object> known = walked.get(key);
    if (known != null) {
      return known;
    }
    List<Object> found = new ArrayList<>();
    for (Node child : browser.tree(dir).nodes()) {
      String childPath = SnapshotBrowser.join(path, child.name());
      if (matches(childPath, child.name())) {
        found.add(new SnapshotBrowser.Entry(childPath, child));
      }
      if (child.isDirectory()) {
        List<Object> below = walk(child, childPath);
        if (!below.isEmpty()) {
          found.add(below);
        }
      }
    }
    List<Object> result = found.isEmpty() ? List.of() : List.copyOf(found);
    walked.put(key, result);
    return result;
  }

  private boolean matches(String path, String name) {
    String shownPath = FileName.display(path);
    String shownName = FileName.display(name);
    for (Glob g : patterns) {
      if (g.matches(shownPath, shownName)) {
        return true;
      }
    }
    return false;
  }

  @SuppressWarnings("unchecked") // walk builds lists of entries and of such lists only
  private static void flatten(List<Object> found, List<SnapshotBrowser.Entry> out) {
    for (Object o : found) {
      if (o instanceof SnapshotBrowser.Entry e) {
        out.add(e);
      } else {
        flatten((List<Object>) o, out);
      }
    }
  }
}
