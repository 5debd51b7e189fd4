package dev.stele.operator.nodeagent;

import dev.stele.k8s.api.PodVolumeStatus;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.util.function.Consumer;

/**
 * Writes the status of one request the agent is serving, keeping the latest resource version so
 * that each write builds on the one before. The agent is the only writer of a request's status once
 * it has started it, so a conflict (someone edited the labels, say) is resolved by writing this
 * status over the fresh resource.
 *
 * <p>Concurrency: the reconciler thread and a {@link ProgressTicker} share one writer; every write
 * holds the instance's lock.
 */
final class StatusWriter<R extends CustomResource<?, PodVolumeStatus>> {
  private final KubernetesClient client;
  private R current;

  StatusWriter(KubernetesClient client, R resource) {
    this.client = client;
    this.current = resource;
    if (resource.getStatus() == null) {
      resource.setStatus(new PodVolumeStatus());
    }
  }

  synchronized R resource() {
    return current;
  }

  /** Applies {@code change} to the status and writes it; returns the resource as written. */
  synchronized R write(Consumer<PodVolumeStatus> change) {
    PodVolumeStatus status = current.getStatus();
    change.accept(status);
    try {
      current = client.resource(current).updateStatus();
    } catch (KubernetesClientException e) {
      if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
        throw e;
      }
      R fresh = client.resource(current).get();
      if (fresh == null) {
        throw e;
      }
      fresh.setStatus(status);
      current = client.resource(fresh).updateStatus();
    }
    return current;
  }
}
