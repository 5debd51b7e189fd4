package dev.stele.k8s.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.LabelSelector;
import java.util.List;

/**
 * A Backup's {@code spec.hooks}: commands run in the containers of the pods it selects, before and
 * after their volumes are backed up. Velero's. A pod with hook annotations of its own runs those
 * instead.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class BackupHooks {
  @JsonPropertyDescription("Hooks, each for the pods it selects")
  public List<ResourceHook> resources;

  /** Hooks for the pods that match. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class ResourceHook {
    @JsonPropertyDescription("Names the hook in the backup's log and events")
    public String name;

    @JsonPropertyDescription("Namespaces whose pods run the hook; empty or * for all")
    public List<String> includedNamespaces;

    public List<String> excludedNamespaces;

    @JsonPropertyDescription("Hooks run in pods only: empty, * or pods selects them")
    public List<String> includedResources;

    public List<String> excludedResources;

    @JsonPropertyDescription("Only pods with these labels")
    public LabelSelector labelSelector;

    @JsonPropertyDescription("Run, in order, before the pod's volumes are backed up")
    public List<Hook> pre;

    @JsonPropertyDescription(
        "Run, in order, once the backup's volumes are done (also when they failed)")
    public List<Hook> post;
  }

  /** One hook. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Hook {
    public ExecHook exec;
  }
}
