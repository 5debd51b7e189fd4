package dev.stele.operator.deletion;

import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupStatus;
import dev.stele.k8s.api.SteleApi;
import dev.stele.operator.kube.Times;
import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import java.io.IOException;
import java.time.Instant;
import java.util.List;

/**
 * What forgetting one Backup's snapshots in its repository did: the tombstones of every snapshot of
 * the backup (those an earlier pass wrote included), how many snapshots there were, and until when
 * storage keeps their data.
 *
 * @param tombstones the tombstones' names
 * @param snapshots how many snapshots the backup had in the repository
 * @param retainedUntil until when storage keeps the data, or null when nothing was found
 */
record Forgetting(List<String> tombstones, int snapshots, Instant retainedUntil) {

  /**
   * Forgets the snapshots of {@code backup} (its manifest, or, for a Backup created by sync, the
   * manifest it was synced from, and its parts), giving {@code reason} in each tombstone.
   */
  static Forgetting of(Repository repo, Backup backup, String reason) throws IOException {
    BackupStatus bs = backup.getStatus();
    String manifest = bs.snapshotID;
    if (manifest == null && backup.getMetadata().getAnnotations() != null) {
      manifest = backup.getMetadata().getAnnotations().get(SteleApi.SYNCED_FROM_ANNOTATION);
    }
    BackupTombstones found =
        BackupTombstones.find(
            repo, manifest == null ? null : Id.parse(manifest), backup.getMetadata().getUid());
    List<String> tombstones = found.forget(reason);
    Instant until = found.isEmpty() ? null : found.retainedUntil(Times.parse(bs.expiration));
    return new Forgetting(tombstones, found.size(), until);
  }

  /** What the request's status says once the snapshots in {@code repository} are forgotten. */
  String message(String repository) {
    return snapshots == 0
        ? "no snapshot of the backup was found in repository " + repository
        : tombstones.size()
            + " tombstones written for "
            + snapshots
            + " snapshots in repository "
            + repository
            + "; storage retains the data until "
            + retainedUntil
            + ", after which maintenance reclaims what no other backup uses";
  }
}
