package dev.stele.operator.kube;

import dev.stele.k8s.api.PhasedStatus;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.time.Duration;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The skeleton every reconciler of the operator and the node agent shares, so that each is only its
 * phase list. One pass: skip what this process does not serve; stop at a final phase; read the
 * resource again from the API server (the cache may still hold a status this process has since
 * replaced); give it a status if it has none; then {@link #advance} it from its phase. The pass
 * answers when to look again, and the framework's entry point only turns that answer into a
 * reschedule: every status write goes through the {@link Pass}, and so through the {@link
 * StatusRecorder}.
 *
 * @param <R> the resource
 * @param <S> its status
 * @param <P> its phases
 */
public abstract class PhasedReconciler<
        R extends CustomResource<?, S>, S extends PhasedStatus<P>, P extends Enum<P>>
    implements Reconciler<R> {
  protected final KubernetesClient client;
  private final StatusRecorder recorder;
  private final Supplier<S> newStatus;

  /** A reconciler whose resources get {@code newStatus} before their first phase. */
  protected PhasedReconciler(KubernetesClient client, Events events, Supplier<S> newStatus) {
    this.client = client;
    this.recorder = new StatusRecorder(client, events);
    this.newStatus = newStatus;
  }

  @Override
  public final UpdateControl<R> reconcile(R resource, Context<R> context) {
    Duration again = pass(resource, context);
    return again == null
        ? UpdateControl.noUpdate()
        : UpdateControl.<R>noUpdate().rescheduleAfter(again);
  }

  /**
   * One pass; returns when to look again, or null when there is nothing more to do here. Public so
   * that tests can drive a reconciler pass by pass.
   */
  public final @Nullable Duration reconcile(R cached) {
    return pass(cached, null);
  }

  private @Nullable Duration pass(R cached, @Nullable Context<R> context) {
    if (!serves(cached) || finished(cached.getStatus())) {
      return null;
    }
    R resource = observe(cached);
    if (resource == null || !serves(resource) || finished(resource.getStatus())) {
      return null;
    }
    if (resource.getStatus() == null) {
      resource.setStatus(newStatus.get());
    }
    return advance(new Pass<>(recorder, context, resource), resource.getStatus().phase());
  }

  private static boolean finished(@Nullable PhasedStatus<?> status) {
    return status != null && status.finished();
  }

  /** The resource a pass starts from: by default, as the API server has it now (null if gone). */
  protected @Nullable R observe(R cached) {
    return client.resource(cached).get();
  }

  /** Whether this process serves the resource at all (another node's request, say: no). */
  protected boolean serves(R resource) {
    return true;
  }

  /**
   * Moves the resource on from {@code phase} (null: new), writing its status through {@code pass};
   * returns when to look again, or null when nothing is left to do.
   */
  protected abstract @Nullable Duration advance(Pass<R, S> pass, @Nullable P phase);
}
