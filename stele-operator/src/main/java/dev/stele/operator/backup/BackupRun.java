package dev.stele.operator.backup;

import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupSpec;
import dev.stele.k8s.api.BackupStatus;
import dev.stele.operator.kube.Times;
import java.time.Instant;

/**
 * What the storage layer ({@link BackupSnapshots}) knows of one run of a Backup: which Backup it
 * is, what it selects, when it started and when it expires. Built from the resource by the
 * reconciler, so that no Kubernetes object and no formatted time reaches the snapshots.
 *
 * @param name the Backup's name
 * @param namespace the Backup's namespace
 * @param uid the Backup's uid, which names its snapshots ({@link #uid(Backup)})
 * @param spec what the Backup selects
 * @param started when the backup started
 * @param expires when it may be forgotten
 * @param volumes how many pod volumes it asked for, or null before it asked
 */
record BackupRun(
    String name,
    String namespace,
    String uid,
    BackupSpec spec,
    Instant started,
    Instant expires,
    Integer volumes) {

  /** The run {@code backup}'s status describes (once it has started). */
  static BackupRun of(Backup backup) {
    BackupStatus status = backup.getStatus();
    return new BackupRun(
        backup.getMetadata().getName(),
        backup.getMetadata().getNamespace(),
        uid(backup),
        backup.getSpec() == null ? new BackupSpec() : backup.getSpec(),
        Times.parse(status.startTimestamp),
        Times.parse(status.expiration),
        status.volumes);
  }

  /** The backup's uid, which names its snapshots; namespace/name if the server gave none. */
  static String uid(Backup backup) {
    String uid = backup.getMetadata().getUid();
    return uid == null
        ? backup.getMetadata().getNamespace() + "/" + backup.getMetadata().getName()
        : uid;
  }
}
