package dev.stele.operator.nodeagent;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Finds a pod volume's directory on this node, where the kubelet mounted it: {@code
 * <kubeletRoot>/pods/<pod uid>/volumes/<plugin>/<dir>}, where {@code dir} is the volume's name, or
 * for a claim (a {@code persistentVolumeClaim} or generic ephemeral volume) the name of the
 * PersistentVolume bound to it; a CSI volume ({@code kubernetes.io~csi}) keeps its files in {@code
 * <dir>/mount}.
 */
final class PodVolumes {
  static final String CSI_PLUGIN = "kubernetes.io~csi";

  /** Why a volume's directory cannot be found (yet); {@code permanent} when waiting cannot help. */
  static final class Unavailable extends Exception {
    private static final long serialVersionUID = 1L;
    final boolean permanent;

    Unavailable(String message, boolean permanent) {
      super(message);
      this.permanent = permanent;
    }
  }

  private final KubernetesClient client;
  private final Path kubeletRoot;

  PodVolumes(KubernetesClient client, Path kubeletRoot) {
    this.client = client;
    this.kubeletRoot = kubeletRoot;
  }

  /** The directory holding the files of {@code volume} of {@code pod} on this node. */
  Path directory(Pod pod, String volume) throws Unavailable {
    String ns = pod.getMetadata().getNamespace();
    String podName = ns + "/" + pod.getMetadata().getName();
    List<Volume> volumes = pod.getSpec() == null ? List.of() : pod.getSpec().getVolumes();
    Volume v =
        volumes == null
            ? null
            : volumes.stream().filter(x -> volume.equals(x.getName())).findFirst().orElse(null);
    if (v == null) {
      throw new Unavailable("pod " + podName + " has no volume " + volume, true);
    }
    if (v.getHostPath() != null) {
      throw new Unavailable(
          "volume "
              + volume
              + " of pod "
              + podName
              + " is a hostPath volume, outside the kubelet's pod directory: not supported",
          true);
    }
    String dir = volume;
    String claim = null;
    if (v.getPersistentVolumeClaim() != null) {
      claim = v.getPersistentVolumeClaim().getClaimName();
    } else if (v.getEphemeral() != null) {
      claim = pod.getMetadata().getName() + "-" + volume;
    }
    if (claim != null) {
      PersistentVolumeClaim pvc =
          client.persistentVolumeClaims().inNamespace(ns).withName(claim).get();
      if (pvc == null) {
        throw new Unavailable(
            "claim " + ns + "/" + claim + " of volume " + volume + " does not exist", false);
      }
      dir = pvc.getSpec() == null ? null : pvc.getSpec().getVolumeName();
      if (dir == null || dir.isBlank()) {
        throw new Unavailable(
            "claim " + ns + "/" + claim + " of volume " + volume + " is not bound yet", false);
      }
    }
    String uid = pod.getMetadata().getUid();
    if (uid == null || uid.isBlank()) {
      throw new Unavailable("pod " + podName + " has no uid yet", false);
    }
    Path plugins = kubeletRoot.resolve("pods").resolve(uid).resolve("volumes");
    List<Path> candidates;
    try (Stream<Path> list = Files.list(plugins)) {
      candidates = list.sorted().toList();
    } catch (IOException e) {
      candidates = List.of();
    }
    for (Path plugin : candidates) {
      Path found = plugin.resolve(dir);
      if (!Files.isDirectory(found)) {
        continue;
      }
      if (plugin.getFileName().toString().equals(CSI_PLUGIN)) {
        found = found.resolve("mount");
        if (!Files.isDirectory(found)) {
          throw new Unavailable(
              found + " does not exist: volume " + volume + " is not mounted", false);
        }
      }
      return found;
    }
    throw new Unavailable(
        "no directory "
            + plugins.resolve("*").resolve(dir)
            + " for volume "
            + volume
            + " of pod "
            + podName
            + " on this node",
        false);
  }
}
