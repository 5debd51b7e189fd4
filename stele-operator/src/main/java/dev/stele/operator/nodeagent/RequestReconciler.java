package dev.stele.operator.nodeagent;

import dev.stele.k8s.api.PodVolumePhase;
import dev.stele.k8s.api.PodVolumeStatus;
import dev.stele.operator.kube.Events;
import dev.stele.operator.kube.Settings;
import dev.stele.operator.repository.Repositories;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.time.Duration;
import java.util.List;

/**
 * What the node agent's two reconcilers share: one request ({@link PodVolumeStatus}) is served in
 * passes, each returning when to look again, and ends with a final phase written once (message,
 * completion time and an Event). The framework's {@code reconcile} only reschedules: the status is
 * written by the pass itself, through a {@link StatusWriter}.
 */
abstract class RequestReconciler<R extends CustomResource<?, PodVolumeStatus>>
    implements Reconciler<R> {
  final KubernetesClient client;
  final Settings settings;
  final NodeSettings node;
  final Events events;
  final Repositories repositories;
  final PodVolumes volumes;

  RequestReconciler(KubernetesClient client, Settings settings, NodeSettings node) {
    this.client = client;
    this.settings = settings;
    this.node = node;
    this.events = new Events(client, settings.clock(), NodeAgent.COMPONENT, node.node());
    this.repositories = new Repositories(client, settings);
    this.volumes = new PodVolumes(client, node.kubeletRoot());
  }

  @Override
  public final UpdateControl<R> reconcile(R request, Context<R> context) {
    Duration again = reconcile(request);
    return again == null
        ? UpdateControl.noUpdate()
        : UpdateControl.<R>noUpdate().rescheduleAfter(again);
  }

  /**
   * One pass: returns when to look again, or null when there is nothing more to do here (done, or
   * another node's). Public so that end-to-end tests can drive the agent pass by pass.
   */
  public abstract Duration reconcile(R cached);

  /**
   * The request as the server has it (null if deleted): the cache may still show an InProgress this
   * agent has since completed.
   */
  final R current(R cached) {
    return client.resource(cached).get();
  }

  /** Ends the request: phase, message and completion time, and an Event; returns null. */
  final Duration finish(StatusWriter<R> status, PodVolumePhase phase, String message) {
    R done =
        status.write(
            s -> {
              s.phase = phase;
              s.message = message;
              s.completionTimestamp = settings.clock().instant().toString();
            });
    events.record(
        done,
        phase == PodVolumePhase.FAILED ? Events.WARNING : Events.NORMAL,
        phase.value(),
        message);
    return null;
  }

  static boolean isFinal(PodVolumeStatus s) {
    return s != null && s.phase != null && s.phase.isFinal();
  }

  static boolean blank(String s) {
    return s == null || s.isBlank();
  }

  /** The first three warnings, for a one-line message. */
  static String first(List<String> warnings) {
    return String.join("; ", warnings.size() <= 3 ? warnings : warnings.subList(0, 3));
  }
}
