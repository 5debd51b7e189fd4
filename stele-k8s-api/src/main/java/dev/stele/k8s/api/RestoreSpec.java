package dev.stele.k8s.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.TypedLocalObjectReference;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** What a {@link Restore} takes from which backup, and where it puts it. Velero's names. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "self == oldSelf", message = "a Restore's spec cannot change")
public class RestoreSpec {
  @JsonPropertyDescription("The Backup, in this namespace, to restore from")
  public String backupName;

  @JsonPropertyDescription("Namespaces (as backed up) to restore; empty or * for all")
  public List<String> includedNamespaces;

  public List<String> excludedNamespaces;

  @JsonPropertyDescription("Resources to restore, named as in Backup.spec.includedResources")
  public List<String> includedResources;

  public List<String> excludedResources;

  @JsonPropertyDescription(
      "Cluster-scoped objects of the backup: true, all; false, none, not even Namespace objects"
          + " (namespaces are then created bare); unset, all when every namespace is restored,"
          + " else the Namespace objects of the restored namespaces and what the restored objects"
          + " need (CRDs, volumes and storage classes of claims, cluster roles and bindings of"
          + " service accounts)")
  public @Nullable Boolean includeClusterResources;

  @JsonPropertyDescription("Old namespace to new namespace")
  public Map<String, String> namespaceMapping;

  @JsonPropertyDescription(
      "Only objects these labels select, as backed up (matchLabels and matchExpressions)")
  public LabelSelector labelSelector;

  @JsonPropertyDescription(
      "Only objects one of these selectors selects; not together with labelSelector")
  public List<LabelSelector> orLabelSelectors;

  @JsonPropertyDescription(
      "A ConfigMap in this namespace (kind ConfigMap) whose one key holds resource modifier"
          + " rules, Velero's format, applied to each object before it is restored")
  public TypedLocalObjectReference resourceModifier;

  @JsonPropertyDescription(
      "What to do with an object that already exists: none (leave it, a warning) or update"
          + " (replace its spec and data with the backed-up ones)")
  @Pattern("^(none|update)$")
  public String existingResourcePolicy;

  @JsonPropertyDescription("Whether pod volume data is restored (default true)")
  public @Nullable Boolean restorePVs;

  @JsonPropertyDescription(
      "Init containers added to restored pods and commands run in them once they run (pods"
          + " annotated init.hook.restore.velero.io/... or post.hook.restore.velero.io/..., or"
          + " the same under stele.dev, run their own instead)")
  public RestoreHooks hooks;
}
