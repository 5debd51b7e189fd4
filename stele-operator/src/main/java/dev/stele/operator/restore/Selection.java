package dev.stele.operator.restore;

import dev.stele.k8s.api.LabelSelectors;
import dev.stele.k8s.api.RestoreSpec;
import io.fabric8.kubernetes.api.model.LabelSelector;
import java.util.List;
import java.util.Map;

/**
 * Which backed-up objects a Restore takes, and where they go: the spec's filters, applied to the
 * objects as they were backed up, and its namespace mapping.
 *
 * <ul>
 *   <li>Namespaces: {@code includedNamespaces} (empty or {@code *}: all) minus {@code
 *       excludedNamespaces}, by the names in the backup.
 *   <li>Types: {@code includedResources} / {@code excludedResources}, named as in a Backup ({@code
 *       configmaps}, {@code deployments.apps}; the bare plural matches any group).
 *   <li>Cluster-scoped objects: none if {@code includeClusterResources} is false. Otherwise the
 *       Namespace objects of the selected namespaces; other cluster-scoped types when it is true,
 *       or when it is unset and every namespace is selected (Velero's rule).
 *   <li>{@code labelSelector} or {@code orLabelSelectors} (not both), evaluated on the labels the
 *       object was backed up with as an API server evaluates them ({@link LabelSelectors});
 *       Namespace objects are taken whatever their labels, as the backup takes them.
 * </ul>
 */
final class Selection {
  private final RestoreSpec spec;
  private final List<LabelSelector> labels;
  private final Map<String, String> mapping;

  /**
   * @throws IllegalArgumentException if the spec's selectors are malformed, or both set
   */
  Selection(RestoreSpec spec) {
    this.spec = spec;
    String problem = LabelSelectors.problem(spec.labelSelector, spec.orLabelSelectors);
    if (problem != null) {
      throw new IllegalArgumentException(problem);
    }
    this.labels = LabelSelectors.alternatives(spec.labelSelector, spec.orLabelSelectors);
    this.mapping = spec.namespaceMapping == null ? Map.of() : Map.copyOf(spec.namespaceMapping);
  }

  boolean selects(BackedUpObject o) {
    if (!typeSelected(o)) {
      return false;
    }
    if (o.isNamespace()) {
      return !Boolean.FALSE.equals(spec.includeClusterResources) && namespaceSelected(o.name());
    }
    if (!o.namespaced()) {
      boolean wanted =
          Boolean.TRUE.equals(spec.includeClusterResources)
              || (spec.includeClusterResources == null && allNamespaces());
      return wanted && labelsMatch(o);
    }
    return namespaceSelected(o.namespace()) && labelsMatch(o);
  }

  /** Where objects of namespace {@code ns} (as backed up) are restored. */
  String target(String ns) {
    return mapping.getOrDefault(ns, ns);
  }

  private boolean typeSelected(BackedUpObject o) {
    if (names(spec.excludedResources, o)) {
      return false;
    }
    return all(spec.includedResources) || names(spec.includedResources, o);
  }

  private static boolean names(List<String> list, BackedUpObject o) {
    return list != null && (list.contains(o.qualifiedResource()) || list.contains(o.resource()));
  }

  private boolean namespaceSelected(String ns) {
    if (spec.excludedNamespaces != null && spec.excludedNamespaces.contains(ns)) {
      return false;
    }
    return allNamespaces() || spec.includedNamespaces.contains(ns);
  }

  private boolean allNamespaces() {
    return all(spec.includedNamespaces);
  }

  private static boolean all(List<String> list) {
    return list == null || list.isEmpty() || list.contains("*");
  }

  private boolean labelsMatch(BackedUpObject o) {
    return LabelSelectors.matchesAny(labels, o.labels());
  }
}
