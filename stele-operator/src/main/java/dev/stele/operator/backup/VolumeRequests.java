package dev.stele.operator.backup;

import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.PodRef;
import dev.stele.k8s.api.PodVolumeBackup;
import dev.stele.k8s.api.PodVolumeBackupSpec;
import dev.stele.k8s.api.PodVolumePhase;
import dev.stele.k8s.api.SteleApi;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * A backup's {@link PodVolumeBackup}s, one per selected pod volume: created owned by the Backup and
 * labelled with its uid, under a name that is the same on every pass, so that a pass after a
 * restart finds the requests the one before created.
 */
final class VolumeRequests {
  private final KubernetesClient client;

  VolumeRequests(KubernetesClient client) {
    this.client = client;
  }

  /** How many of a backup's requests have finished, and how. */
  record Tally(int completed, int failed) {
    static Tally of(List<PodVolumeBackup> requests) {
      int completed = 0;
      int failed = 0;
      for (PodVolumeBackup pvb : requests) {
        PodVolumePhase phase = pvb.getStatus() == null ? null : pvb.getStatus().phase;
        if (phase == PodVolumePhase.COMPLETED) {
          completed++;
        } else if (phase == PodVolumePhase.FAILED) {
          failed++;
        }
      }
      return new Tally(completed, failed);
    }
  }

  /** Creates the request for one volume, unless a pass before a restart did. */
  void create(Backup backup, VolumeSelection.PodVolume volume) {
    PodVolumeBackup pvb = new PodVolumeBackup();
    pvb.getMetadata().setNamespace(backup.getMetadata().getNamespace());
    pvb.getMetadata().setName(name(backup, volume));
    pvb.getMetadata()
        .setLabels(
            Map.of(
                SteleApi.BACKUP_NAME_LABEL,
                backup.getMetadata().getName(),
                SteleApi.BACKUP_UID_LABEL,
                BackupRun.uid(backup)));
    pvb.getMetadata()
        .setOwnerReferences(
            List.of(
                new OwnerReferenceBuilder()
                    .withApiVersion(backup.getApiVersion())
                    .withKind(backup.getKind())
                    .withName(backup.getMetadata().getName())
                    .withUid(backup.getMetadata().getUid())
                    .withController(true)
                    .build()));
    PodVolumeBackupSpec spec = new PodVolumeBackupSpec();
    spec.node = volume.node();
    spec.pod = new PodRef(volume.namespace(), volume.pod(), volume.podUid());
    spec.volume = volume.volume();
    spec.repository = backup.getStatus().repository;
    spec.backupName = backup.getMetadata().getName();
    spec.backupUID = BackupRun.uid(backup);
    spec.expiration = backup.getStatus().expiration;
    pvb.setSpec(spec);
    try {
      client.resource(pvb).create();
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        throw e;
      }
    }
  }

  /** The backup's requests, as the API server has them. */
  List<PodVolumeBackup> of(Backup backup) {
    return client
        .resources(PodVolumeBackup.class)
        .inNamespace(backup.getMetadata().getNamespace())
        .withLabel(SteleApi.BACKUP_UID_LABEL, BackupRun.uid(backup))
        .list()
        .getItems();
  }

  /** {@code <backup>-<8 hex digits of the volume's identity>}: the same on every pass. */
  static String name(Backup backup, VolumeSelection.PodVolume volume) {
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256")
              .digest(
                  (volume.namespace() + "/" + volume.pod() + "/" + volume.volume())
                      .getBytes(StandardCharsets.UTF_8));
      String name = backup.getMetadata().getName();
      return (name.length() > 200 ? name.substring(0, 200) : name)
          + "-"
          + HexFormat.of().formatHex(hash, 0, 4);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
