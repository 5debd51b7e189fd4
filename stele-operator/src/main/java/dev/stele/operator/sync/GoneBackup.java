package dev.stele.operator.sync;

import dev.stele.k8s.api.Backup;
import dev.stele.operator.backup.Forgotten;
import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * A Backup resource whose backup its repository no longer holds: finished, in that repository, and
 * its manifest tombstoned — deleted here or in another cluster using the same repository. Sync
 * removes it, as Velero's sync removes backups gone from the bucket; a Backup sync created and one
 * this cluster made are treated alike, since the tombstone, not the resource, says what exists.
 *
 * <p>Only a readable tombstone counts: a Backup still running, one without a manifest, and one
 * whose tombstones cannot be read (the listing fails, and nothing is removed) all stay. Once
 * maintenance has reclaimed both a forgotten manifest and its tombstone, nothing says the backup
 * was deleted: a cluster that has not synced since keeps its Backup, and a restore from it fails on
 * the missing snapshot. Retention keeps both for days at least, and sync runs every minute.
 *
 * @param backup the resource
 * @param why when and why its manifest was tombstoned
 */
record GoneBackup(Backup backup, String why) {

  /** Those of {@code backups} in repository {@code repository} that {@code tombstones} forget. */
  static List<GoneBackup> among(
      Repository repo,
      String repository,
      Collection<Backup> backups,
      Map<String, List<Id>> tombstones) {
    List<GoneBackup> gone = new ArrayList<>();
    for (Backup b : backups) {
      Id manifest = Forgotten.manifest(b.getStatus());
      if (manifest == null
          || !repository.equals(b.getStatus().repository)
          || b.getMetadata().getDeletionTimestamp() != null) {
        continue;
      }
      String why = Forgotten.why(repo, tombstones, manifest);
      if (why != null) {
        gone.add(new GoneBackup(b, why));
      }
    }
    return gone;
  }

  String name() {
    return backup.getMetadata().getName();
  }
}
