package dev.stele.operator.nodeagent;

import dev.stele.k8s.api.PodVolumePhase;
import dev.stele.k8s.api.PodVolumeStatus;
import dev.stele.operator.kube.Events;
import dev.stele.operator.kube.PhasedReconciler;
import dev.stele.operator.kube.Settings;
import dev.stele.operator.repository.Repositories;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.List;

/**
 * What the node agent's two reconcilers share: one request ({@link PodVolumeStatus}) is served in
 * passes of the {@link PhasedReconciler} skeleton (New, InProgress, then Completed or Failed), and
 * ends with a final phase written once (message, completion time and an Event), through a {@link
 * StatusWriter}.
 */
abstract class RequestReconciler<R extends CustomResource<?, PodVolumeStatus>>
    extends PhasedReconciler<R, PodVolumeStatus, PodVolumePhase> {
  final Settings settings;
  final NodeSettings node;
  final Repositories repositories;
  final PodVolumes volumes;

  RequestReconciler(KubernetesClient client, Settings settings, NodeSettings node) {
    super(
        client,
        new Events(client, settings.clock(), NodeSettings.COMPONENT, node.node()),
        PodVolumeStatus::new);
    this.settings = settings;
    this.node = node;
    this.repositories = new Repositories(client, settings);
    this.volumes = new PodVolumes(client, node.kubeletRoot());
  }

  /** Ends the request: phase, message and completion time, and an Event; returns null. */
  final Duration finish(StatusWriter<R> status, PodVolumePhase phase, String message) {
    status.write(
        s -> {
          s.phase = phase;
          s.message = message;
          s.completionTimestamp = settings.clock().instant().toString();
        });
    status.event(
        phase == PodVolumePhase.FAILED ? Events.WARNING : Events.NORMAL, phase.value(), message);
    return null;
  }

  static boolean blank(String s) {
    return s == null || s.isBlank();
  }

  /** The first three warnings, for a one-line message. */
  static String first(List<String> warnings) {
    return String.join("; ", warnings.size() <= 3 ? warnings : warnings.subList(0, 3));
  }
}
