package dev.stele.operator.backup;

import dev.stele.k8s.api.BackupStatus;
import dev.stele.repo.BlobKind;
import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import dev.stele.repo.Tombstone;
import java.util.List;
import java.util.Map;

/**
 * Whether a backup was deleted from its repository: a tombstone forgets its manifest. The tombstone
 * is what deletes a backup, in this cluster or in any other using the same repository, so it is
 * what sync and restore ask, whatever the cluster's Backup resources still say.
 */
public final class Forgotten {
  private Forgotten() {}

  /**
   * The manifest a finished Backup's status names (its {@code snapshotID}), or null when it has
   * none: not finished, or failed before it wrote one.
   */
  public static Id manifest(BackupStatus status) {
    if (status == null
        || status.phase == null
        || !status.phase.isFinal()
        || status.snapshotID == null) {
      return null;
    }
    try {
      return Id.parse(status.snapshotID);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /**
   * Why {@code manifest} is forgotten: when and why its first tombstone was written, or null if no
   * tombstone names it.
   *
   * @param tombstones the repository's tombstones, as {@link Repository#tombstones} gives them
   */
  public static String why(Repository repo, Map<String, List<Id>> tombstones, Id manifest) {
    List<Id> ids = tombstones.get(BlobKind.SNAPSHOT.nameOf(manifest));
    if (ids == null || ids.isEmpty()) {
      return null;
    }
    Tombstone first = null;
    for (Id id : ids) {
      Tombstone t = repo.tombstone(id);
      if (t != null && (first == null || t.time().isBefore(first.time()))) {
        first = t;
      }
    }
    return first == null
        ? "its manifest is tombstoned"
        : "its manifest was tombstoned at " + first.time() + " (" + first.reason() + ")";
  }
}
