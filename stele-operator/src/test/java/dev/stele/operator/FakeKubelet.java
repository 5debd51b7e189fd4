package dev.stele.operator;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What a kubelet does for the tests, on a directory standing in for {@code /var/lib/kubelet}: pods
 * run on one node, and each emptyDir volume is a directory {@code
 * pods/<uid>/volumes/kubernetes.io~empty-dir/<volume>} under the root.
 */
final class FakeKubelet {
  static final String PLUGIN = "kubernetes.io~empty-dir";

  final KubernetesClient client;
  final String node;
  final Path root;

  FakeKubelet(KubernetesClient client, String node, Path root) {
    this.client = client;
    this.node = node;
    this.root = root;
  }

  /**
   * Creates a running pod on this node with emptyDir volumes, annotated for backup (the uid is the
   * one the API server gives; the mock server gives one).
   */
  Pod run(String namespace, String name, List<String> volumes, String annotation) {
    var b =
        new PodBuilder()
            .withNewMetadata()
            .withName(name)
            .withNamespace(namespace)
            .addToLabels("app", name)
            .endMetadata()
            .withNewSpec()
            .withNodeName(node)
            .addNewContainer()
            .withName(name)
            .withImage("busybox:1.37")
            .endContainer()
            .endSpec()
            .withNewStatus()
            .withPhase("Running")
            .endStatus();
    if (annotation != null) {
      b.editMetadata().addToAnnotations(annotation, String.join(",", volumes)).endMetadata();
    }
    for (String v : volumes) {
      b.editSpec().addNewVolume().withName(v).withNewEmptyDir().endEmptyDir().endVolume().endSpec();
    }
    Pod pod = client.pods().inNamespace(namespace).resource(b.build()).create();
    for (String v : volumes) {
      volumeDir(pod, v);
    }
    return pod;
  }

  /** The directory of {@code volume} of {@code pod}, created if missing. */
  Path volumeDir(Pod pod, String volume) {
    Path dir =
        root.resolve("pods")
            .resolve(pod.getMetadata().getUid())
            .resolve("volumes")
            .resolve(PLUGIN)
            .resolve(volume);
    try {
      return Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Schedules a pod the API server holds (a restored one) to this node: sets its node and creates
   * its (empty) volume directories, as the kubelet does before init containers run.
   */
  Pod schedule(String namespace, String name) {
    Pod pod =
        client
            .pods()
            .inNamespace(namespace)
            .withName(name)
            .edit(
                p -> {
                  p.getSpec().setNodeName(node);
                  return p;
                });
    if (pod.getSpec().getVolumes() != null) {
      pod.getSpec().getVolumes().stream()
          .filter(v -> v.getEmptyDir() != null)
          .forEach(v -> volumeDir(pod, v.getName()));
    }
    return pod;
  }
}
