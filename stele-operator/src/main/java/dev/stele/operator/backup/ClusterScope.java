package dev.stele.operator.backup;

import dev.stele.k8s.api.BackupSpec;
import dev.stele.operator.kube.ResourceType;
import java.util.List;

/**
 * Which types a Backup takes, and how much of each cluster-scoped one, Velero's rules:
 *
 * <ul>
 *   <li>{@code includedResources} / {@code excludedResources} choose types, of either scope.
 *   <li>A cluster-scoped type named by {@code excludedClusterScopedResources} is never taken.
 *   <li>With {@code includedClusterScopedResources}, the types it names are taken in full, the
 *       others as far as collected objects need them.
 *   <li>Otherwise {@code includeClusterResources}: true, every object; false, none; unset, every
 *       object when every namespace is backed up, else those needed.
 * </ul>
 *
 * Namespace objects are not decided here: those of the selected namespaces are always taken.
 */
record ClusterScope(BackupSpec spec, boolean allNamespaces) {
  /** How much of a cluster-scoped type is taken. */
  enum Take {
    ALL,
    NEEDED,
    NONE
  }

  /**
   * @throws IllegalArgumentException if the spec mixes the two ways of choosing cluster-scoped
   *     resources, as Velero refuses
   */
  static ClusterScope of(BackupSpec spec) {
    if (spec.includeClusterResources != null
        && (!empty(spec.includedClusterScopedResources)
            || !empty(spec.excludedClusterScopedResources))) {
      throw new IllegalArgumentException(
          "spec.includeClusterResources cannot be given with"
              + " spec.included/excludedClusterScopedResources: use one or the other");
    }
    return new ClusterScope(spec, all(spec.includedNamespaces) && empty(spec.excludedNamespaces));
  }

  /** Whether {@code includedResources} and {@code excludedResources} let the type in. */
  boolean selected(ResourceType type) {
    if (names(spec.excludedResources, type)) {
      return false;
    }
    return all(spec.includedResources) || names(spec.includedResources, type);
  }

  /** How much of cluster-scoped {@code type} is taken. */
  Take take(ResourceType type) {
    if (!selected(type) || names(spec.excludedClusterScopedResources, type)) {
      return Take.NONE;
    }
    if (!empty(spec.includedClusterScopedResources)) {
      return names(spec.includedClusterScopedResources, type) ? Take.ALL : Take.NEEDED;
    }
    if (spec.includeClusterResources != null) {
      return spec.includeClusterResources ? Take.ALL : Take.NONE;
    }
    return allNamespaces ? Take.ALL : Take.NEEDED;
  }

  /** Empty, or holding {@code *}: everything. */
  static boolean all(List<String> list) {
    return empty(list) || list.contains("*");
  }

  private static boolean empty(List<String> list) {
    return list == null || list.isEmpty();
  }

  private static boolean names(List<String> list, ResourceType type) {
    return list != null
        && (list.contains("*")
            || list.contains(type.qualifiedName())
            || list.contains(type.resource()));
  }
}
