package dev.stele.operator.hook;

import dev.stele.k8s.api.LabelSelectors;
import io.fabric8.kubernetes.api.model.LabelSelector;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Which pods a spec hook applies to, as Velero selects them: namespaces included (empty or {@code
 * *}: all) and not excluded, the resource {@code pods} included (empty, {@code *}, {@code pods})
 * and not excluded, and the labels matching the selector as an API server matches them ({@link
 * LabelSelectors}).
 */
record HookScope(
    @Nullable List<String> includedNamespaces,
    @Nullable List<String> excludedNamespaces,
    @Nullable List<String> includedResources,
    @Nullable List<String> excludedResources,
    @Nullable LabelSelector labelSelector) {

  boolean matches(String namespace, @Nullable Map<String, String> labels) {
    return included(includedNamespaces, namespace)
        && !listed(excludedNamespaces, namespace)
        && (includedResources == null
            || includedResources.isEmpty()
            || includedResources.stream().anyMatch(HookScope::isPods))
        && (excludedResources == null || excludedResources.stream().noneMatch(HookScope::isPods))
        && LabelSelectors.matches(labelSelector, labels == null ? Map.of() : labels);
  }

  private static boolean isPods(String resource) {
    return resource.equals("*") || resource.equals("pods") || resource.equals("pods.");
  }

  private static boolean included(@Nullable List<String> names, String name) {
    return names == null || names.isEmpty() || names.contains("*") || names.contains(name);
  }

  private static boolean listed(@Nullable List<String> names, String name) {
    return names != null && (names.contains(name) || names.contains("*"));
  }
}
