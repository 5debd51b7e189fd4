package dev.stele.operator;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The image the operator itself runs, which the restore-wait init container must run too: a cluster
 * that pulled the operator's image can pull it again, whatever registry {@code stele install
 * --image} or a kustomize overlay chose. Kubernetes' downward API gives a pod its name but not its
 * image, so the operator reads its own pod (deploy/operator.yaml sets {@code POD_NAME} and {@code
 * POD_NAMESPACE}; its role may read pods).
 */
public final class OwnImage {
  private static final Logger LOG = LoggerFactory.getLogger(OwnImage.class);

  /** The name of the operator's container in deploy/operator.yaml. */
  static final String CONTAINER = "operator";

  private OwnImage() {}

  /**
   * The image of container {@value #CONTAINER} (or of the only container) of pod {@code pod} in
   * {@code namespace}; {@code fallback} when not in a pod or the pod cannot be read, with a warning
   * in the latter case.
   */
  public static String of(
      KubernetesClient client, @Nullable String namespace, @Nullable String pod, String fallback) {
    if (pod == null || pod.isBlank() || namespace == null || namespace.isBlank()) {
      return fallback;
    }
    try {
      Pod own = client.pods().inNamespace(namespace).withName(pod).get();
      if (own != null) {
        List<Container> containers = own.getSpec().getContainers();
        for (Container c : containers) {
          if (c.getName().equals(CONTAINER) || containers.size() == 1) {
            return c.getImage();
          }
        }
      }
      LOG.warn(
          "pod {}/{} has no container {}: restore-wait containers will run {}",
          namespace,
          pod,
          CONTAINER,
          fallback);
    } catch (KubernetesClientException e) {
      LOG.warn(
          "cannot read this operator's pod {}/{} ({}): restore-wait containers will run {}",
          namespace,
          pod,
          e.getMessage(),
          fallback);
    }
    return fallback;
  }
}
