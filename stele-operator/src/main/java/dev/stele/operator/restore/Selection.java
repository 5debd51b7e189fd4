package dev.stele.operator.restore;

import dev.stele.k8s.api.LabelSelectors;
import dev.stele.k8s.api.RestoreSpec;
import dev.stele.operator.kube.ClusterDependencies;
import io.fabric8.kubernetes.api.model.LabelSelector;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
 *       Namespace objects of the selected namespaces; other cluster-scoped objects all when it is
 *       true, or when it is unset and every namespace is selected (Velero's rule); when it is unset
 *       and only some namespaces are, those the selected objects need ({@link ClusterDependencies},
 *       the backup's rules), whatever their labels.
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

  /** The objects of {@code objects} the restore takes, in the order given. */
  List<BackedUpObject> select(List<BackedUpObject> objects) {
    Set<BackedUpObject> chosen = identitySet();
    for (BackedUpObject o : objects) {
      if (selects(o)) {
        chosen.add(o);
      }
    }
    if (spec.includeClusterResources == null && !allNamespaces()) {
      chosen.addAll(needed(objects, chosen));
    }
    return objects.stream().filter(chosen::contains).toList();
  }

  private boolean selects(BackedUpObject o) {
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

  /**
   * The cluster-scoped objects of the backup that {@code chosen} needs, and what those need in
   * turn: the ClusterRoleBindings of its ServiceAccounts, then what each needed object names.
   */
  private Set<BackedUpObject> needed(List<BackedUpObject> objects, Set<BackedUpObject> chosen) {
    Map<String, BackedUpObject> cluster = new HashMap<>();
    for (BackedUpObject o : objects) {
      if (!o.namespaced() && !o.isNamespace() && typeSelected(o)) {
        cluster.put(o.qualifiedResource() + " " + o.name(), o);
      }
    }
    Set<String> accounts = new HashSet<>();
    Deque<BackedUpObject> work = new ArrayDeque<>();
    for (BackedUpObject o : chosen) {
      if (o.namespaced()) {
        work.add(o);
        if (o.qualifiedResource().equals("serviceaccounts")) {
          accounts.add(o.namespace() + "/" + o.name());
        }
      }
    }
    Set<BackedUpObject> needed = identitySet();
    for (BackedUpObject o : cluster.values()) {
      if (o.qualifiedResource().equals(ClusterDependencies.CLUSTER_ROLE_BINDINGS)
          && !ClusterDependencies.boundAccounts(o.json(), accounts).isEmpty()
          && needed.add(o)) {
        work.add(o);
      }
    }
    while (!work.isEmpty()) {
      BackedUpObject o = work.poll();
      for (var need : ClusterDependencies.of(o.group(), o.resource(), o.namespace(), o.json())) {
        BackedUpObject found = cluster.get(need.describe());
        if (found != null && needed.add(found)) {
          work.add(found);
        }
      }
    }
    return needed;
  }

  private static Set<BackedUpObject> identitySet() {
    return Collections.newSetFromMap(new IdentityHashMap<>());
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
