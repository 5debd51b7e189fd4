package dev.stele.operator.kube;

import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.net.HttpURLConnection;
import org.jspecify.annotations.Nullable;

/**
 * The one place the operator and the node agent write a status. A write replaces the status
 * subresource and carries the resource's {@code resourceVersion}, so a write based on a stale copy
 * fails with 409 Conflict instead of undoing a newer status (optimistic locking). Under the
 * framework the written resource also goes straight into the controller's informer cache (JOSDK's
 * recent-update cache), so the next pass starts from what this one wrote. A status change worth
 * telling is also an Event.
 *
 * <p>Concurrency: holds nothing but the client and the Events; safe for many threads.
 */
public final class StatusRecorder {
  private final KubernetesClient client;
  private final Events events;

  public StatusRecorder(KubernetesClient client, Events events) {
    this.client = client;
    this.events = events;
  }

  /**
   * Writes the status of {@code resource}, failing on a conflict; returns the resource as written.
   * {@code context} is null when a test drives the pass, and then no cache is updated.
   */
  public <R extends CustomResource<?, ?>> R write(R resource, @Nullable Context<R> context) {
    R written = client.resource(resource).updateStatus();
    remember(context, resource, written);
    return written;
  }

  /**
   * Writes the status of {@code resource}, which this process alone owns: on a conflict (someone
   * edited the labels, say) it is written again over the resource as the server has it.
   */
  public <S, R extends CustomResource<?, S>> R force(R resource, @Nullable Context<R> context) {
    try {
      return write(resource, context);
    } catch (KubernetesClientException e) {
      if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
        throw e;
      }
      R fresh = client.resource(resource).get();
      if (fresh == null) {
        throw e;
      }
      fresh.setStatus(resource.getStatus());
      return write(fresh, context);
    }
  }

  /** Records an Event of {@code type} ({@link Events#NORMAL} or {@link Events#WARNING}). */
  public void event(CustomResource<?, ?> on, String type, String reason, String message) {
    events.record(on, type, reason, message);
  }

  private static <R extends CustomResource<?, ?>> void remember(
      @Nullable Context<R> context, R before, R written) {
    if (context != null) {
      context
          .eventSourceRetriever()
          .getControllerEventSource()
          .handleRecentResourceUpdate(ResourceID.fromResource(written), written, before);
    }
  }
}
