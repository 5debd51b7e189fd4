package dev.stele.maintenance;

import dev.stele.blob.Retention;
import dev.stele.repo.Id;
import dev.stele.repo.Index;
import dev.stele.repo.Repository;
import dev.stele.snapshot.SnapshotCatalog;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The immutability audit: every live blob whose retention falls short of what the snapshots using
 * it need, computed exactly as {@link Maintenance} computes what to extend. Reads only.
 */
public final class RetentionAudit {
  private final Repository repo;

  public RetentionAudit(Repository repo) {
    this.repo = repo;
  }

  /** One blob retained for less than it needs. */
  public record Shortfall(String blob, Retention current, Instant needed) {
    @Override
    public String toString() {
      return blob
          + " is retained "
          + (current.isNone() ? "not at all" : "until " + current.until())
          + " but needed until "
          + needed;
    }
  }

  /**
   * What the audit found.
   *
   * @param lockMode false if the repository has no lock mode (then nothing needs retention)
   * @param checked blobs whose retention was read
   * @param shortfalls blobs retained for less than they need, by name
   * @param problems what the audit could not read (trees), each naming the blob
   */
  public record Result(
      boolean lockMode, int checked, List<Shortfall> shortfalls, List<String> problems) {
    public boolean ok() {
      return shortfalls.isEmpty();
    }
  }

  public Result run() throws IOException {
    if (repo.format().retentionMode() == Retention.Mode.NONE) {
      return new Result(false, 0, List.of(), List.of());
    }
    Set<String> forgotten = repo.tombstoned();
    SnapshotCatalog catalog = new SnapshotCatalog(repo);
    List<SnapshotCatalog.Entry> live = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    for (Id id : repo.list(dev.stele.repo.BlobKind.SNAPSHOT)) {
      if (forgotten.contains(dev.stele.repo.BlobKind.SNAPSHOT.nameOf(id))) {
        continue;
      }
      try {
        live.add(new SnapshotCatalog.Entry(id, catalog.read(id)));
      } catch (IOException e) {
        problems.add(e.getMessage());
      }
    }
    repo.reloadIndex();
    Index index = repo.loadIndex();
    Reachability reach = Reachability.of(repo, live, repo.format().minimumRetention());
    problems.addAll(reach.problems());
    Map<String, Instant> needed =
        RetentionNeeds.compute(repo, index, reach, live, Set.of(), index.markedPacks());
    List<Shortfall> shortfalls = RetentionNeeds.shortfalls(repo, needed);
    return new Result(true, needed.size(), List.copyOf(shortfalls), List.copyOf(problems));
  }
}
