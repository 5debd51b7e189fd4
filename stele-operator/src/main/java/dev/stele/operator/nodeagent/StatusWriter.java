package dev.stele.operator.nodeagent;

import dev.stele.k8s.api.PodVolumeStatus;
import dev.stele.operator.kube.Pass;
import io.fabric8.kubernetes.client.CustomResource;
import java.util.function.Consumer;

/**
 * Writes the status of one request the agent is serving, each write building on the one before. The
 * agent is the only writer of a request's status once it has started it, so a conflict (someone
 * edited the labels, say) is resolved by writing this status over the fresh resource.
 *
 * <p>Concurrency: the reconciler thread and a {@link ProgressTicker} share one writer; every write
 * holds the instance's lock.
 */
final class StatusWriter<R extends CustomResource<?, PodVolumeStatus>> {
  private final Pass<R, PodVolumeStatus> pass;

  StatusWriter(Pass<R, PodVolumeStatus> pass) {
    this.pass = pass;
  }

  synchronized R resource() {
    return pass.resource();
  }

  /** Applies {@code change} to the status and writes it; returns the resource as written. */
  synchronized R write(Consumer<PodVolumeStatus> change) {
    change.accept(pass.status());
    return pass.force();
  }

  /** Records an Event on the request. */
  synchronized void event(String type, String reason, String message) {
    pass.event(type, reason, message);
  }
}
