package dev.stele.operator.backup;

import dev.stele.k8s.api.BackupHooks;
import dev.stele.operator.hook.BackupHookSpecs;
import dev.stele.operator.hook.BackupHookSpecs.Phase;
import dev.stele.operator.hook.Hook;
import dev.stele.operator.hook.HookReport;
import dev.stele.operator.hook.HookRunner;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A backup's hooks around its pods' volumes ({@link BackupHookSpecs} says which). Pre hooks run
 * once the pods are collected and before any PodVolumeBackup exists; a pod whose Fail hook fails
 * has its volumes left out (an error each, so the backup ends PartiallyFailed) and runs no post
 * hooks. Post hooks run once every volume of the backup has finished, completed or failed, just
 * before the manifest is written. Only running pods run hooks; a pod that is not is a warning.
 */
final class PodHooks {
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private final KubernetesClient client;
  private final HookRunner runner;
  private final @Nullable BackupHooks spec;
  private @Nullable Pre ran;

  PodHooks(KubernetesClient client, HookRunner runner, @Nullable BackupHooks spec) {
    this.client = client;
    this.runner = runner;
    this.spec = spec;
  }

  /**
   * What the pre hooks did.
   *
   * @param report their results
   * @param blocked the pods (namespace/name) whose volumes are not to be backed up
   * @param postPods the pods whose post hooks are to run
   */
  record Pre(HookReport report, Set<String> blocked, List<String> postPods) {
    static final Pre NONE = new Pre(HookReport.NONE, Set.of(), List.of());

    /** {@code volumes} without those of blocked pods. */
    List<VolumeSelection.PodVolume> keep(List<VolumeSelection.PodVolume> volumes) {
      return volumes.stream()
          .filter(v -> !blocked.contains(v.namespace() + "/" + v.pod()))
          .toList();
    }
  }

  /** Runs the pre hooks of {@code pods} (as collected). */
  Pre pre(List<GenericKubernetesResource> pods) {
    HookReport report = HookReport.NONE;
    Set<String> blocked = new LinkedHashSet<>();
    List<String> post = new ArrayList<>();
    for (GenericKubernetesResource object : pods) {
      Pod pod = SERIALIZATION.convertValue(object, Pod.class);
      String where = where(pod);
      List<Hook> before;
      List<Hook> after;
      try {
        before = BackupHookSpecs.of(pod, spec, Phase.PRE);
        after = BackupHookSpecs.of(pod, spec, Phase.POST);
      } catch (IllegalArgumentException e) {
        String why = "pod " + where + ": " + e.getMessage() + "; its volumes are not backed up";
        report = report.plus(HookReport.notRun(why, true));
        blocked.add(where);
        continue;
      }
      if (before.isEmpty() && after.isEmpty()) {
        continue;
      }
      String notRunning = notRunning(pod);
      if (notRunning != null) {
        report =
            report.plus(
                HookReport.warning("pod " + where + " " + notRunning + ": its hooks are not run"));
        continue;
      }
      HookRunner.Outcome o = runner.run(pod, Phase.PRE.toString(), before);
      report = report.plus(o.report());
      if (o.stopped()) {
        blocked.add(where);
      } else if (!after.isEmpty()) {
        post.add(where);
      }
    }
    ran = new Pre(report, blocked, post);
    return ran;
  }

  /** What {@link #pre} did, or null before it ran. */
  @Nullable Pre ran() {
    return ran;
  }

  /** Runs the post hooks of {@code pods} (namespace/name), read again from the API server. */
  HookReport post(List<String> pods) {
    HookReport report = HookReport.NONE;
    for (String where : pods) {
      int slash = where.indexOf('/');
      Pod pod =
          client
              .pods()
              .inNamespace(where.substring(0, slash))
              .withName(where.substring(slash + 1))
              .get();
      if (pod == null || notRunning(pod) != null) {
        report =
            report.plus(
                HookReport.warning(
                    "pod "
                        + where
                        + (pod == null ? " is gone" : " " + notRunning(pod))
                        + ": its post hooks are not run"));
        continue;
      }
      List<Hook> after;
      try {
        after = BackupHookSpecs.of(pod, spec, Phase.POST);
      } catch (IllegalArgumentException e) {
        String why = "pod " + where + ": " + e.getMessage();
        report = report.plus(HookReport.notRun(why, true));
        continue;
      }
      report = report.plus(runner.run(pod, Phase.POST.toString(), after).report());
    }
    return report;
  }

  private static String where(Pod pod) {
    return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
  }

  /** Why the pod cannot run a command, or null if it can. */
  private static @Nullable String notRunning(Pod pod) {
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    if (phase != null && !phase.equals("Running")) {
      return "is " + phase;
    }
    String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
    return node == null || node.isEmpty() ? "is not running on a node" : null;
  }
}
