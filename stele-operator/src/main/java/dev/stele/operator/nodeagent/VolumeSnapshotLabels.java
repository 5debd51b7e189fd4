package dev.stele.operator.nodeagent;

import dev.stele.k8s.api.PodVolumeBackupSpec;
import dev.stele.k8s.api.SteleApi;
import dev.stele.repo.SnapshotManifest;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The labels of a pod volume's snapshot, written by the agent that backs the volume up and matched
 * by the next pass, so that a request whose snapshot exists (the agent stopped before writing the
 * status) is completed from it instead of backed up twice.
 */
final class VolumeSnapshotLabels {
  private VolumeSnapshotLabels() {}

  /** The labels of the request's snapshot; the first four identify it. */
  static Map<String, String> of(PodVolumeBackupSpec spec) {
    Map<String, String> labels = new HashMap<>();
    labels.put(SteleApi.PART_OF_LABEL, spec.backupUID);
    labels.put(SteleApi.POD_NAMESPACE_LABEL, spec.pod.namespace);
    labels.put(SteleApi.POD_NAME_LABEL, spec.pod.name);
    labels.put(SteleApi.VOLUME_LABEL, spec.volume);
    if (spec.backupName != null) {
      labels.put(SteleApi.BACKUP_NAME_LABEL, spec.backupName);
    }
    return labels;
  }

  /**
   * Whether {@code m} is the snapshot of this request: a pod volume of this backup, pod, volume.
   */
  static boolean isFor(SnapshotManifest m, PodVolumeBackupSpec spec) {
    Map<String, String> l = m.labels();
    return m.tags().contains(SteleApi.POD_VOLUME_TAG)
        && Objects.equals(l.get(SteleApi.PART_OF_LABEL), spec.backupUID)
        && Objects.equals(l.get(SteleApi.POD_NAMESPACE_LABEL), spec.pod.namespace)
        && Objects.equals(l.get(SteleApi.POD_NAME_LABEL), spec.pod.name)
        && Objects.equals(l.get(SteleApi.VOLUME_LABEL), spec.volume);
  }
}
