package dev.stele.operator.deletion;

import dev.stele.blob.BlobNotFoundException;
import dev.stele.blob.Retention;
import dev.stele.operator.backup.BackupLabels;
import dev.stele.operator.backup.Manifests;
import dev.stele.repo.BlobKind;
import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import dev.stele.repo.SnapshotManifest;
import dev.stele.snapshot.SnapshotCatalog;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The snapshots of one backup in its repository, forgotten or not: its manifest, and its parts (the
 * snapshots labelled {@code stele.dev/part-of=<backup uid>}, written before the manifest, which
 * exist even when the backup failed and has none). Forgetting them writes one tombstone per
 * snapshot not yet forgotten, so a deletion repeated after a crash adds nothing.
 */
final class BackupTombstones {
  private final Repository repo;
  private final List<SnapshotCatalog.Entry> found;
  private final Map<String, List<Id>> tombstones;

  private BackupTombstones(
      Repository repo, List<SnapshotCatalog.Entry> found, Map<String, List<Id>> tombstones) {
    this.repo = repo;
    this.found = found;
    this.tombstones = tombstones;
  }

  /**
   * Finds the snapshots of the backup whose manifest is {@code manifest} (null if it has none) and
   * whose uid is {@code uid}. The manifest's own uid label counts too: a Backup recreated by sync
   * has a new uid, while its parts carry the original's. One listing, and a read of each manifest
   * this process has not seen yet ({@link Manifests}).
   */
  static BackupTombstones find(Repository repo, Id manifest, String uid) throws IOException {
    SnapshotCatalog catalog = new SnapshotCatalog(repo);
    Set<String> uids = new HashSet<>();
    if (uid != null) {
      uids.add(uid);
    }
    if (manifest != null) {
      try {
        String original = BackupLabels.of(catalog.read(manifest)).uid();
        if (original != null) {
          uids.add(original);
        }
      } catch (BlobNotFoundException e) {
        // already reclaimed by maintenance: nothing of it is left to forget
      }
    }
    Map<String, List<Id>> tombstones = repo.tombstones();
    List<SnapshotCatalog.Entry> found = new ArrayList<>();
    for (SnapshotCatalog.Entry e : Manifests.all(repo)) {
      Id id = e.id();
      SnapshotManifest m = e.manifest();
      BackupLabels labels = BackupLabels.of(m);
      boolean ours =
          id.equals(manifest)
              || uids.contains(labels.partOf())
              || (BackupLabels.isManifest(m) && uids.contains(labels.uid()));
      if (ours) {
        found.add(e);
      }
    }
    return new BackupTombstones(repo, found, tombstones);
  }

  boolean isEmpty() {
    return found.isEmpty();
  }

  int size() {
    return found.size();
  }

  /**
   * Writes a tombstone for each snapshot not yet forgotten; returns the names of the tombstones of
   * every snapshot of the backup, those written before included.
   */
  List<String> forget(String reason) throws IOException {
    SnapshotCatalog catalog = new SnapshotCatalog(repo);
    List<String> names = new ArrayList<>();
    for (SnapshotCatalog.Entry e : found) {
      List<Id> existing = tombstones.get(e.name());
      if (existing == null || existing.isEmpty()) {
        names.add(BlobKind.TOMBSTONE.nameOf(catalog.forget(e.id(), reason)));
      } else {
        existing.forEach(t -> names.add(BlobKind.TOMBSTONE.nameOf(t)));
      }
    }
    return names;
  }

  /**
   * Until when storage keeps the backup's data: the latest of the retention in force on each
   * snapshot's manifest and of each snapshot's expiry (its data was retained that long when it was
   * written), or {@code expiration} when that is later or nothing else is known; null if neither.
   */
  Instant retainedUntil(Instant expiration) throws IOException {
    Instant latest = expiration;
    for (SnapshotCatalog.Entry e : found) {
      latest = later(latest, e.manifest().expires());
      Retention r;
      try {
        r = repo.store().retention(e.name());
      } catch (BlobNotFoundException gone) {
        continue;
      }
      if (!r.isNone()) {
        latest = later(latest, r.until());
      }
    }
    return latest;
  }

  private static Instant later(Instant a, Instant b) {
    if (a == null) {
      return b;
    }
    return b == null || !b.isAfter(a) ? a : b;
  }
}
