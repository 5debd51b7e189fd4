package dev.stele.operator.backup;

import dev.stele.k8s.api.BackupSpec;
import dev.stele.k8s.api.SteleApi;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which volumes of the backed-up pods a backup takes, as Velero's file system backup chooses them:
 * the volumes a pod's {@code stele.dev/backup-volumes} (or {@code backup.velero.io/backup-volumes})
 * annotation names; with {@code defaultVolumesToFsBackup}, every volume that holds data except
 * those its {@code ...backup-volumes-excludes} annotation names. Volumes whose content comes from
 * the API (secrets, config maps, projected, downward API) or from the node (host paths) are never
 * taken: the first are restored as resources, the second are not the pod's.
 */
final class VolumeSelection {
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  /** One volume of one pod, on the node that will read it. */
  record PodVolume(String namespace, String pod, String podUid, String node, String volume) {}

  private VolumeSelection() {}

  static List<PodVolume> select(
      List<GenericKubernetesResource> pods, BackupSpec spec, List<String> warnings) {
    boolean all = Boolean.TRUE.equals(spec.defaultVolumesToFsBackup);
    List<PodVolume> out = new ArrayList<>();
    for (GenericKubernetesResource object : pods) {
      Pod pod = SERIALIZATION.convertValue(object, Pod.class);
      Map<String, String> notes = pod.getMetadata().getAnnotations();
      Set<String> named =
          names(
              notes, SteleApi.BACKUP_VOLUMES_ANNOTATION, SteleApi.VELERO_BACKUP_VOLUMES_ANNOTATION);
      Set<String> excluded =
          names(
              notes,
              SteleApi.BACKUP_VOLUMES_EXCLUDES_ANNOTATION,
              SteleApi.VELERO_BACKUP_VOLUMES_EXCLUDES_ANNOTATION);
      List<Volume> volumes =
          pod.getSpec() == null || pod.getSpec().getVolumes() == null
              ? List.of()
              : pod.getSpec().getVolumes();
      List<String> chosen = new ArrayList<>();
      for (Volume v : volumes) {
        boolean wanted = named.contains(v.getName()) || (all && !excluded.contains(v.getName()));
        if (wanted && holdsData(v)) {
          chosen.add(v.getName());
        }
      }
      String where = pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
      for (String name : named) {
        if (volumes.stream().noneMatch(v -> v.getName().equals(name))) {
          warnings.add("pod " + where + " has no volume " + name + " to back up");
        }
      }
      if (chosen.isEmpty()) {
        continue;
      }
      String node = pod.getSpec().getNodeName();
      String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
      if (node == null || node.isEmpty() || (phase != null && !phase.equals("Running"))) {
        warnings.add(
            "pod "
                + where
                + " is not running on a node"
                + (phase == null ? "" : " (" + phase + ")")
                + ": volumes "
                + String.join(",", chosen)
                + " not backed up");
        continue;
      }
      for (String volume : chosen) {
        out.add(
            new PodVolume(
                pod.getMetadata().getNamespace(),
                pod.getMetadata().getName(),
                pod.getMetadata().getUid(),
                node,
                volume));
      }
    }
    return out;
  }

  private static boolean holdsData(Volume v) {
    return v.getHostPath() == null
        && v.getSecret() == null
        && v.getConfigMap() == null
        && v.getProjected() == null
        && v.getDownwardAPI() == null;
  }

  private static Set<String> names(Map<String, String> annotations, String... keys) {
    Set<String> out = new LinkedHashSet<>();
    if (annotations == null) {
      return out;
    }
    for (String key : keys) {
      String value = annotations.get(key);
      if (value != null) {
        Arrays.stream(value.split(","))
            .map(String::strip)
            .filter(s -> !s.isEmpty())
            .forEach(out::add);
      }
    }
    return out;
  }
}
