package dev.stele.operator.restore;

import dev.stele.k8s.api.Durations;
import dev.stele.k8s.api.Restore;
import dev.stele.k8s.api.RestoreHooks;
import dev.stele.k8s.api.RestoreStatus;
import dev.stele.operator.hook.Hook;
import dev.stele.operator.hook.HookReport;
import dev.stele.operator.hook.HookRunner;
import dev.stele.operator.hook.RestoreHookSpecs;
import dev.stele.operator.kube.Events;
import dev.stele.operator.kube.Pass;
import dev.stele.operator.kube.Times;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The post-restore exec hooks of a restore's pods ({@link RestoreHookSpecs}), run once its volumes
 * are done, each pod's as soon as the pod is Running with the hooks' containers ready; a pod not
 * ready within its hooks' wait timeout (from its creation) fails them, each as its on-error says.
 *
 * <p>At most once: a pod is marked started in {@code status.progress} before its first hook runs,
 * so an operator restarted after skips it (a warning: what the hooks did is not known).
 */
final class PostRestoreHooks {
  private final KubernetesClient client;
  private final HookRunner runner;
  private final Clock clock;

  PostRestoreHooks(KubernetesClient client, HookRunner runner, Clock clock) {
    this.client = client;
    this.runner = runner;
    this.clock = clock;
  }

  /**
   * Runs the hooks of every pod of {@code outcome} that is ready, and gives up on those that waited
   * too long; returns what the restore still waits for, or null when no pod is left.
   */
  @Nullable String advance(Pass<Restore, RestoreStatus> pass, Outcome outcome) {
    RestoreHooks spec = pass.resource().getSpec().hooks;
    List<String> waiting = new ArrayList<>();
    for (Outcome.HookPod h : List.copyOf(outcome.hookPods)) {
      String where = h.namespace() + "/" + h.pod();
      if (h.started()) {
        outcome.warn(
            "the post-restore hooks of pod "
                + where
                + " were started by an operator that stopped: they are not run again, and what"
                + " they did is not known");
        outcome.hookPods.remove(h);
        continue;
      }
      Pod pod = client.pods().inNamespace(h.namespace()).withName(h.pod()).get();
      if (pod == null) {
        outcome.warn("pod " + where + " is gone: its post-restore hooks are not run");
        outcome.hookPods.remove(h);
        continue;
      }
      List<Hook> hooks;
      try {
        hooks =
            RestoreHookSpecs.execHooks(
                h.backedUpIn(),
                pod.getMetadata().getLabels(),
                pod.getMetadata().getAnnotations(),
                spec);
      } catch (IllegalArgumentException e) {
        record(pass, outcome, HookReport.notRun("pod " + where + ": " + e.getMessage(), true));
        outcome.hookPods.remove(h);
        continue;
      }
      if (!ready(pod, hooks)) {
        if (waited(pod, pass).compareTo(longestWait(hooks)) < 0) {
          waiting.add(where);
          continue;
        }
        HookReport report = HookReport.NONE;
        for (Hook hook : hooks) {
          report =
              report.plus(
                  HookReport.notRun(
                      "post-restore hook "
                          + hook.name()
                          + " in pod "
                          + where
                          + ": the pod did not run with its container ready within "
                          + Durations.format(longestWait(List.of(hook))),
                      hook.failOnError()));
        }
        record(pass, outcome, report);
        outcome.hookPods.remove(h);
        continue;
      }
      outcome.hookPods.set(
          outcome.hookPods.indexOf(h),
          new Outcome.HookPod(h.namespace(), h.pod(), h.backedUpIn(), true));
      pass.status().progress = ProgressRecord.of(outcome);
      pass.write();
      record(pass, outcome, runner.run(pod, "post-restore", hooks).report());
      outcome.hookPods.remove(new Outcome.HookPod(h.namespace(), h.pod(), h.backedUpIn(), true));
    }
    return waiting.isEmpty()
        ? null
        : "waiting for pods "
            + String.join(", ", waiting)
            + " to run with their containers ready, for their post-restore hooks";
  }

  private static void record(
      Pass<Restore, RestoreStatus> pass, Outcome outcome, HookReport report) {
    report.log().forEach(outcome::log);
    outcome.warnings.addAll(report.warnings());
    outcome.errors.addAll(report.errors());
    pass.status().hookStatus = report.addTo(pass.status().hookStatus);
    for (String failure : report.failures()) {
      pass.event(Events.WARNING, "HookFailed", failure);
    }
  }

  /** Running, and every container a hook names (or the first) ready. */
  private static boolean ready(Pod pod, List<Hook> hooks) {
    if (pod.getStatus() == null || !"Running".equals(pod.getStatus().getPhase())) {
      return false;
    }
    List<ContainerStatus> statuses =
        pod.getStatus().getContainerStatuses() == null
            ? List.of()
            : pod.getStatus().getContainerStatuses();
    for (Hook hook : hooks) {
      String container =
          hook.container() != null
              ? hook.container()
              : pod.getSpec().getContainers().get(0).getName();
      boolean ready =
          statuses.stream()
              .anyMatch(s -> s.getName().equals(container) && Boolean.TRUE.equals(s.getReady()));
      if (!ready) {
        return false;
      }
    }
    return true;
  }

  /** Since the pod was created (or, if the server did not say, the restore started). */
  private Duration waited(Pod pod, Pass<Restore, RestoreStatus> pass) {
    Instant since = Times.parse(pod.getMetadata().getCreationTimestamp());
    if (since == null) {
      since = Times.parse(pass.status().startTimestamp);
    }
    return since == null ? Duration.ZERO : Duration.between(since, clock.instant());
  }

  private static Duration longestWait(List<Hook> hooks) {
    Duration longest = Duration.ZERO;
    for (Hook hook : hooks) {
      Duration wait =
          hook.waitTimeout() == null ? RestoreHookSpecs.DEFAULT_WAIT : hook.waitTimeout();
      if (wait.compareTo(longest) > 0) {
        longest = wait;
      }
    }
    return longest;
  }
}
