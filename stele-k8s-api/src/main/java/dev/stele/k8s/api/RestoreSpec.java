package dev.stele.k8s.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.LabelSelector;
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

  @JsonPropertyDescription("Whether Namespace objects are restored (default true)")
  public @Nullable Boolean includeClusterResources;

  @JsonPropertyDescription("Old namespace to new namespace")
  public Map<String, String> namespaceMapping;

  @JsonPropertyDescription("Only objects with these labels (matchLabels only)")
  public LabelSelector labelSelector;

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
