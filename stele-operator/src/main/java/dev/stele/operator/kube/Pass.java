package dev.stele.operator.kube;

import io.fabric8.kubernetes.client.CustomResource;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import org.jspecify.annotations.Nullable;

/**
 * One reconcile pass over one resource: the resource as the pass knows it, and the writes of its
 * status, each building on the one before (the resource becomes the one written).
 *
 * <p>Concurrency: one pass, one thread.
 *
 * @param <R> the resource
 * @param <S> its status
 */
public final class Pass<R extends CustomResource<?, S>, S> {
  private final StatusRecorder recorder;
  private final @Nullable Context<R> context;
  private R resource;

  Pass(StatusRecorder recorder, @Nullable Context<R> context, R resource) {
    this.recorder = recorder;
    this.context = context;
    this.resource = resource;
  }

  /** The resource, as last read or written. */
  public R resource() {
    return resource;
  }

  /** Its status, never null: change it, then {@link #write()}. */
  public S status() {
    return resource.getStatus();
  }

  /** Writes the status; returns the resource as written. */
  public R write() {
    resource = recorder.write(resource, context);
    return resource;
  }

  /**
   * Writes the status this process alone owns: on a conflict, over the resource as the server has
   * it (see {@link StatusRecorder#force}).
   */
  public R force() {
    resource = recorder.force(resource, context);
    return resource;
  }

  /** Writes the status and records an Event about it. */
  public R write(String type, String reason, String message) {
    write();
    recorder.event(resource, type, reason, message);
    return resource;
  }

  /** Records an Event without writing the status. */
  public void event(String type, String reason, String message) {
    recorder.event(resource, type, reason, message);
  }
}
