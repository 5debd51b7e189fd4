package dev.stele.operator.hook;

import dev.stele.k8s.api.RestoreHooks;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A restored pod's hooks, as Velero finds them: its own annotations when it has a command there,
 * otherwise the hooks of the Restore's {@code spec.hooks.resources} that select it (by the
 * namespace it was backed up in). Init hooks ({@code init.hook.restore.velero.io/container-image|
 * container-name|command}, or {@code spec ... postHooks[].init.initContainers}) add init
 * containers; exec hooks ({@code
 * post.hook.restore.velero.io/container|command|on-error|exec-timeout| wait-timeout}, or {@code
 * postHooks[].exec}) run once the pod runs and the container is ready. Defaults: the pod's first
 * container, on-error Continue, exec timeout 30s, wait timeout 4h (where Velero waits without
 * limit, the restore's item operations are bounded by 4h).
 */
public final class RestoreHookSpecs {
  /** How long a post-restore hook waits for its container when nothing says. */
  public static final Duration DEFAULT_WAIT = Duration.ofHours(4);

  /** Velero's name for an init container an annotation adds without naming it. */
  static final String DEFAULT_INIT_NAME = "restore-hook";

  private RestoreHookSpecs() {}

  /**
   * The init containers the hooks add to a pod backed up in {@code namespace} with these labels and
   * annotations.
   *
   * @throws IllegalArgumentException when an annotation cannot be read
   */
  public static List<Container> initContainers(
      String namespace,
      @Nullable Map<String, String> labels,
      @Nullable Map<String, String> annotations,
      @Nullable RestoreHooks spec) {
    HookAnnotations notes = HookAnnotations.of(annotations, "init.hook.restore", "command");
    if (notes != null) {
      String image = notes.get("container-image");
      if (image == null) {
        throw new IllegalArgumentException(notes.key("container-image") + " is not set");
      }
      String name = notes.get("container-name");
      return List.of(
          new ContainerBuilder()
              .withName(name == null ? DEFAULT_INIT_NAME : name)
              .withImage(image)
              .withCommand(notes.command("command"))
              .build());
    }
    List<Container> out = new ArrayList<>();
    for (RestoreHooks.Hook hook : selected(namespace, labels, spec)) {
      if (hook.init != null && hook.init.initContainers != null) {
        out.addAll(hook.init.initContainers);
      }
    }
    return out;
  }

  /**
   * The exec hooks a pod backed up in {@code namespace} with these labels and annotations runs once
   * restored.
   *
   * @throws IllegalArgumentException when an annotation or a spec hook cannot be read
   */
  public static List<Hook> execHooks(
      String namespace,
      @Nullable Map<String, String> labels,
      @Nullable Map<String, String> annotations,
      @Nullable RestoreHooks spec) {
    HookAnnotations notes = HookAnnotations.of(annotations, "post.hook.restore", "command");
    if (notes != null) {
      return List.of(
          new Hook(
              "annotations",
              notes.get("container"),
              notes.command("command"),
              notes.failOnError("on-error", false),
              notes.duration("exec-timeout", Hook.DEFAULT_TIMEOUT),
              notes.duration("wait-timeout", DEFAULT_WAIT)));
    }
    List<Hook> out = new ArrayList<>();
    if (spec == null || spec.resources == null) {
      return out;
    }
    int i = 0;
    for (RestoreHooks.ResourceHook r : spec.resources) {
      if (!scope(r).matches(namespace, labels) || r.postHooks == null) {
        continue;
      }
      for (RestoreHooks.Hook hook : r.postHooks) {
        RestoreHooks.Exec exec = hook.exec;
        String name = (r.name == null ? "spec.hooks" : r.name) + "[" + i++ + "]";
        if (exec == null) {
          continue;
        }
        out.add(
            Hook.ofSpec(
                name,
                exec.container,
                exec.command,
                exec.onError,
                false,
                exec.execTimeout,
                exec.waitTimeout,
                DEFAULT_WAIT));
      }
    }
    return out;
  }

  private static List<RestoreHooks.Hook> selected(
      String namespace, @Nullable Map<String, String> labels, @Nullable RestoreHooks spec) {
    List<RestoreHooks.Hook> out = new ArrayList<>();
    if (spec == null || spec.resources == null) {
      return out;
    }
    for (RestoreHooks.ResourceHook r : spec.resources) {
      if (r.postHooks != null && scope(r).matches(namespace, labels)) {
        out.addAll(r.postHooks);
      }
    }
    return out;
  }

  private static HookScope scope(RestoreHooks.ResourceHook r) {
    return new HookScope(
        r.includedNamespaces,
        r.excludedNamespaces,
        r.includedResources,
        r.excludedResources,
        r.labelSelector);
  }
}
