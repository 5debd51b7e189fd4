package dev.stele.k8s.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.LabelSelector;
import java.util.List;

/**
 * A Restore's {@code spec.hooks}: init containers added to the pods it restores, and commands run
 * in them once they are running. Velero's. A pod with restore hook annotations runs those instead.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RestoreHooks {
  @JsonPropertyDescription("Hooks, each for the pods it selects")
  public List<ResourceHook> resources;

  /** Hooks for the restored pods that match (selected as backed up, before namespace mapping). */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class ResourceHook {
    @JsonPropertyDescription("Names the hook in the restore's log and events")
    public String name;

    @JsonPropertyDescription(
        "Namespaces (as backed up) whose pods get the hook; empty or * for all")
    public List<String> includedNamespaces;

    public List<String> excludedNamespaces;

    @JsonPropertyDescription("Hooks apply to pods only: empty, * or pods selects them")
    public List<String> includedResources;

    public List<String> excludedResources;

    @JsonPropertyDescription("Only pods with these labels")
    public LabelSelector labelSelector;

    @JsonPropertyDescription("Init containers to add, and commands to run, in order")
    public List<Hook> postHooks;
  }

  /** One hook: an init container or a command (one of the two). */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Hook {
    public Init init;
    public Exec exec;
  }

  /** Init containers added, in order, before the pod's own. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Init {
    @JsonPropertyDescription("Containers, as in a pod's spec.initContainers")
    public List<Container> initContainers;
  }

  /** A command run in a restored pod's container once it is running and ready. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Exec {
    @JsonPropertyDescription("The container to run the command in (default: the pod's first)")
    public String container;

    @JsonPropertyDescription("The command and its arguments, run as given: never through a shell")
    public List<String> command;

    @JsonPropertyDescription("Continue (a warning; the default) or Fail (an error)")
    @Pattern("^(Fail|Continue)$")
    public String onError;

    @JsonPropertyDescription("How long the command may run (default 30s)")
    @Pattern("^([0-9]+(ms|s|m|h|d))+$")
    public String execTimeout;

    @JsonPropertyDescription(
        "How long to wait for the pod to run and the container to be ready (default 4h)")
    @Pattern("^([0-9]+(ms|s|m|h|d))+$")
    public String waitTimeout;
  }
}
