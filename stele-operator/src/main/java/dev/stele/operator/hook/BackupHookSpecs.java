package dev.stele.operator.hook;

import dev.stele.k8s.api.BackupHooks;
import dev.stele.k8s.api.ExecHook;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A pod's backup hooks, as Velero finds them: the pod's own annotations ({@code
 * pre.hook.backup.velero.io/container|command|on-error|timeout}, {@code post.hook.backup...}, or
 * the same under {@code stele.dev}) when it has a command there, otherwise every hook of the
 * Backup's {@code spec.hooks.resources} that selects the pod, in order. Defaults: the pod's first
 * container, on-error Fail, timeout 30s.
 */
public final class BackupHookSpecs {
  private BackupHookSpecs() {}

  /** Before or after the pod's volumes. */
  public enum Phase {
    PRE("pre"),
    POST("post");

    private final String word;

    Phase(String word) {
      this.word = word;
    }

    @Override
    public String toString() {
      return word;
    }
  }

  /**
   * The hooks {@code pod} runs in {@code phase}.
   *
   * @throws IllegalArgumentException when an annotation or a spec hook cannot be read (the message
   *     names it)
   */
  public static List<Hook> of(Pod pod, @Nullable BackupHooks spec, Phase phase) {
    HookAnnotations notes =
        HookAnnotations.of(pod.getMetadata().getAnnotations(), phase + ".hook.backup", "command");
    if (notes != null) {
      return List.of(
          new Hook(
              "annotations",
              notes.get("container"),
              notes.command("command"),
              notes.failOnError("on-error", true),
              notes.duration("timeout", Hook.DEFAULT_TIMEOUT),
              null));
    }
    List<Hook> out = new ArrayList<>();
    if (spec == null || spec.resources == null) {
      return out;
    }
    for (BackupHooks.ResourceHook r : spec.resources) {
      var scope =
          new HookScope(
              r.includedNamespaces,
              r.excludedNamespaces,
              r.includedResources,
              r.excludedResources,
              r.labelSelector);
      if (!scope.matches(pod.getMetadata().getNamespace(), pod.getMetadata().getLabels())) {
        continue;
      }
      List<BackupHooks.Hook> hooks = phase == Phase.PRE ? r.pre : r.post;
      if (hooks == null) {
        continue;
      }
      for (int i = 0; i < hooks.size(); i++) {
        String name = (r.name == null ? "spec.hooks" : r.name) + "[" + phase + " " + i + "]";
        ExecHook exec = hooks.get(i).exec;
        if (exec == null) {
          throw new IllegalArgumentException("hook " + name + " has no exec.command");
        }
        out.add(
            Hook.ofSpec(
                name, exec.container, exec.command, exec.onError, true, exec.timeout, null, null));
      }
    }
    return out;
  }
}
