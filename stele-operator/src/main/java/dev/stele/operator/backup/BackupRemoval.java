package dev.stele.operator.backup;

import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.PodVolumeBackup;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * Removes a Backup resource and the PodVolumeBackups it made, once its snapshots are forgotten in
 * its repository: by a DeleteBackupRequest here, or by sync when another cluster deleted it. Only
 * resources go; nothing stored is touched, and a Backup has no finalizer, so removing one starts
 * nothing else.
 */
public final class BackupRemoval {
  private BackupRemoval() {}

  /** Deletes the PodVolumeBackups of {@code backup}, then the Backup. */
  public static void remove(KubernetesClient client, Backup backup) {
    removePodVolumeBackups(
        client, backup.getMetadata().getNamespace(), backup.getMetadata().getName());
    client.resource(backup).delete();
  }

  /** Deletes the PodVolumeBackups of the Backup {@code backup} in {@code namespace}. */
  public static void removePodVolumeBackups(
      KubernetesClient client, String namespace, String backup) {
    for (PodVolumeBackup pvb :
        client.resources(PodVolumeBackup.class).inNamespace(namespace).list().getItems()) {
      if (pvb.getSpec() != null && backup.equals(pvb.getSpec().backupName)) {
        client.resource(pvb).delete();
      }
    }
  }
}
