package dev.stele.server;

import dev.stele.repo.Repository;
import dev.stele.snapshot.SnapshotCatalog;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The repository's live snapshots, listed again when {@code refresh} has passed since the last
 * listing: snapshots the operator adds or forgets show within that time, and a busy server lists
 * the bucket at most once per interval.
 */
final class Snapshots {
  private final Repository repo;
  private final Clock clock;
  private final Duration refresh;
  private List<SnapshotCatalog.Entry> live = List.of();
  private Instant listed = Instant.MIN;

  Snapshots(Repository repo, Clock clock, Duration refresh) {
    this.repo = repo;
    this.clock = clock;
    this.refresh = refresh;
  }

  synchronized List<SnapshotCatalog.Entry> live() throws IOException {
    Instant now = clock.instant();
    if (listed.equals(Instant.MIN) || !now.isBefore(listed.plus(refresh))) {
      List<SnapshotCatalog.Entry> fresh = new SnapshotCatalog(repo).list();
      if (!fresh.equals(live)) {
        repo.reloadIndex(); // the new snapshots' chunks are in index blobs not loaded yet
      }
      live = fresh;
      listed = now;
    }
    return live;
  }

  /** Lists again at the next call: a snapshot was just created through the server. */
  synchronized void changed() {
    listed = Instant.MIN;
  }
}
