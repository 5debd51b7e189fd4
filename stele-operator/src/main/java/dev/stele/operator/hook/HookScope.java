package dev.stele.operator.hook;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Which pods a spec hook applies to, as Velero selects them: namespaces included (empty or {@code
 * *}: all) and not excluded, the resource {@code pods} included (empty, {@code *}, {@code pods})
 * and not excluded, and the labels matching the selector (matchLabels and matchExpressions: In,
 * NotIn, Exists, DoesNotExist).
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
        && selects(labelSelector, labels == null ? Map.of() : labels);
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

  private static boolean selects(@Nullable LabelSelector selector, Map<String, String> labels) {
    if (selector == null) {
      return true;
    }
    if (selector.getMatchLabels() != null) {
      for (var e : selector.getMatchLabels().entrySet()) {
        if (!e.getValue().equals(labels.get(e.getKey()))) {
          return false;
        }
      }
    }
    if (selector.getMatchExpressions() != null) {
      for (LabelSelectorRequirement r : selector.getMatchExpressions()) {
        String value = labels.get(r.getKey());
        List<String> values = r.getValues() == null ? List.of() : r.getValues();
        boolean ok =
            switch (r.getOperator()) {
              case "In" -> value != null && values.contains(value);
              case "NotIn" -> value == null || !values.contains(value);
              case "Exists" -> labels.containsKey(r.getKey());
              case "DoesNotExist" -> !labels.containsKey(r.getKey());
              default ->
                  throw new IllegalArgumentException(
                      "labelSelector operator "
                          + r.getOperator()
                          + " is not one of In, NotIn,"
                          + " Exists, DoesNotExist");
            };
        if (!ok) {
          return false;
        }
      }
    }
    return true;
  }
}
