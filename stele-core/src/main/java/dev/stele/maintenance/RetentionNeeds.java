package dev.stele.maintenance;

import dev.stele.blob.BlobInfo;
import dev.stele.blob.BlobNotFoundException;
import dev.stele.blob.Retention;
import dev.stele.repo.Id;
import dev.stele.repo.Index;
import dev.stele.repo.PackEntry;
import dev.stele.repo.Repository;
import dev.stele.repo.RepositoryFormat;
import dev.stele.snapshot.SnapshotCatalog;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What retention each live blob needs: the one computation that maintenance (which extends) and the
 * retention audit (which reports) share, so that they cannot disagree.
 *
 * <ul>
 *   <li>A pack needs the latest expiry ({@link dev.stele.repo.SnapshotManifest#retainUntil}) of the
 *       live snapshots reaching a chunk in it. A pack that is going (marked, or being marked) needs
 *       nothing for a chunk that a pack staying also holds; it still needs what only it holds.
 *   <li>A live snapshot's manifest needs its own expiry.
 *   <li>The format blob and every key blob need the latest of all of these.
 * </ul>
 *
 * Index blobs, tombstones and maintenance records need only the minimum they were created with: a
 * lost index is rebuilt from pack footers.
 */
final class RetentionNeeds {
  private RetentionNeeds() {}

  /**
   * Needed retention by blob name.
   *
   * @param gone packs already deleted: they need nothing
   * @param going packs marked for deletion
   */
  static Map<String, Instant> compute(
      Repository repo,
      Index index,
      Reachability reach,
      List<SnapshotCatalog.Entry> live,
      Set<String> gone,
      Set<String> going)
      throws IOException {
    Map<String, Instant> needed = new TreeMap<>();
    Set<Id> staying = new HashSet<>();
    for (var pack : index.packs().entrySet()) {
      if (gone.contains(pack.getKey()) || going.contains(pack.getKey())) {
        continue;
      }
      needPack(needed, pack.getKey(), pack.getValue(), reach, Set.of());
      pack.getValue().forEach(e -> staying.add(e.id()));
    }
    for (var pack : index.packs().entrySet()) {
      if (!gone.contains(pack.getKey()) && going.contains(pack.getKey())) {
        needPack(needed, pack.getKey(), pack.getValue(), reach, staying);
      }
    }
    for (SnapshotCatalog.Entry e : live) {
      needed.put(e.name(), e.manifest().retainUntil(repo.format().minimumRetention()));
    }
    if (!needed.isEmpty()) {
      Instant latest = needed.values().stream().max(Instant::compareTo).orElseThrow();
      needed.put(RepositoryFormat.BLOB, latest);
      for (BlobInfo key : repo.store().list("keys/")) {
        needed.put(key.name(), latest);
      }
    }
    return needed;
  }

  private static void needPack(
      Map<String, Instant> needed,
      String pack,
      List<PackEntry> entries,
      Reachability reach,
      Set<Id> servedElsewhere) {
    Instant until = null;
    for (PackEntry e : entries) {
      Instant u = reach.neededUntil(e.id());
      if (u != null && !servedElsewhere.contains(e.id()) && (until == null || u.isAfter(until))) {
        until = u;
      }
    }
    if (until != null) {
      needed.put(pack, until);
    }
  }

  /** The blobs among {@code needed} whose retention in force falls short; missing ones skipped. */
  static List<RetentionAudit.Shortfall> shortfalls(Repository repo, Map<String, Instant> needed)
      throws IOException {
    List<RetentionAudit.Shortfall> shortfalls = new ArrayList<>();
    for (var n : needed.entrySet()) {
      Retention current;
      try {
        current = repo.store().retention(n.getKey());
      } catch (BlobNotFoundException e) {
        continue; // verify reports missing blobs
      }
      if (!current.lastsUntil(n.getValue())) {
        shortfalls.add(new RetentionAudit.Shortfall(n.getKey(), current, n.getValue()));
      }
    }
    return shortfalls;
  }
}
