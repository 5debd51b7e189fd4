package dev.stele.operator.restore;

import java.util.Comparator;
import java.util.List;

/**
 * The order objects are created in, so that what an object needs exists before it: definitions of
 * custom types, then namespaces, storage, identities and the cluster roles they are bound to,
 * configuration, network, permissions, then workloads from the smallest unit up (a Deployment
 * created after its pods' ReplicaSet adopts them), and everything else last, by name. Velero's
 * order with the same intent.
 *
 * <p>Types are named as filters name them: the plural resource, with its group unless core.
 */
final class RestoreOrder {
  static final List<String> FIRST =
      List.of(
          "customresourcedefinitions.apiextensions.k8s.io",
          "namespaces",
          "storageclasses.storage.k8s.io",
          "persistentvolumes",
          "persistentvolumeclaims",
          "serviceaccounts",
          "clusterroles.rbac.authorization.k8s.io",
          "clusterrolebindings.rbac.authorization.k8s.io",
          "configmaps",
          "secrets",
          "limitranges",
          "resourcequotas",
          "services",
          "roles.rbac.authorization.k8s.io",
          "rolebindings.rbac.authorization.k8s.io",
          "pods",
          "replicasets.apps",
          "deployments.apps",
          "statefulsets.apps",
          "daemonsets.apps",
          "jobs.batch",
          "cronjobs.batch",
          "ingresses.networking.k8s.io");

  /** By type (the list above, then the rest by name), then namespace, then name. */
  static final Comparator<BackedUpObject> OBJECTS =
      Comparator.comparingInt((BackedUpObject o) -> rank(o.qualifiedResource()))
          .thenComparing(BackedUpObject::qualifiedResource)
          .thenComparing(o -> o.namespace() == null ? "" : o.namespace())
          .thenComparing(BackedUpObject::name);

  private RestoreOrder() {}

  /** The type's place in {@link #FIRST}, or after all of them. */
  static int rank(String qualifiedResource) {
    int i = FIRST.indexOf(qualifiedResource);
    return i < 0 ? FIRST.size() : i;
  }
}
