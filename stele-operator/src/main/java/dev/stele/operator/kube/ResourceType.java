package dev.stele.operator.kube;

import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.List;

/**
 * A type of API resource a Backup collects: found by {@link Discovery}, or, on a server without
 * discovery documents (the mock server of most tests), one of {@link #DEFAULTS}.
 *
 * @param group the API group, empty for the core group
 * @param version the version listed
 * @param resource the plural resource name, such as {@code deployments}
 * @param kind the kind, such as {@code Deployment}
 * @param namespaced false for cluster-scoped types
 */
public record ResourceType(
    String group, String version, String resource, String kind, boolean namespaced) {

  /** What a backup collects unless told otherwise. */
  public static final List<ResourceType> DEFAULTS =
      List.of(
          new ResourceType("", "v1", "namespaces", "Namespace", false),
          new ResourceType("", "v1", "configmaps", "ConfigMap", true),
          new ResourceType("", "v1", "secrets", "Secret", true),
          new ResourceType("", "v1", "services", "Service", true),
          new ResourceType("", "v1", "serviceaccounts", "ServiceAccount", true),
          new ResourceType("", "v1", "persistentvolumeclaims", "PersistentVolumeClaim", true),
          new ResourceType("", "v1", "pods", "Pod", true),
          new ResourceType("", "v1", "limitranges", "LimitRange", true),
          new ResourceType("", "v1", "resourcequotas", "ResourceQuota", true),
          new ResourceType("apps", "v1", "replicasets", "ReplicaSet", true),
          new ResourceType("apps", "v1", "deployments", "Deployment", true),
          new ResourceType("apps", "v1", "statefulsets", "StatefulSet", true),
          new ResourceType("apps", "v1", "daemonsets", "DaemonSet", true),
          new ResourceType("batch", "v1", "jobs", "Job", true),
          new ResourceType("batch", "v1", "cronjobs", "CronJob", true),
          new ResourceType("networking.k8s.io", "v1", "ingresses", "Ingress", true),
          new ResourceType("rbac.authorization.k8s.io", "v1", "roles", "Role", true),
          new ResourceType("rbac.authorization.k8s.io", "v1", "rolebindings", "RoleBinding", true),
          new ResourceType("", "v1", "persistentvolumes", "PersistentVolume", false),
          new ResourceType("storage.k8s.io", "v1", "storageclasses", "StorageClass", false),
          new ResourceType("rbac.authorization.k8s.io", "v1", "clusterroles", "ClusterRole", false),
          new ResourceType(
              "rbac.authorization.k8s.io",
              "v1",
              "clusterrolebindings",
              "ClusterRoleBinding",
              false),
          new ResourceType(
              "apiextensions.k8s.io",
              "v1",
              "customresourcedefinitions",
              "CustomResourceDefinition",
              false));

  /** The directory of the group in a backup: the group, or {@code core}. */
  public String groupDirectory() {
    return group.isEmpty() ? "core" : group;
  }

  /** True for core/v1 pods, whose volumes a backup may take. */
  public boolean isPods() {
    return group.isEmpty() && resource.equals("pods");
  }

  /** True for core/v1 namespaces, whose objects a backup takes for the namespaces it selects. */
  public boolean isNamespaces() {
    return group.isEmpty() && resource.equals("namespaces");
  }

  /** How Velero's filters name it: {@code configmaps}, {@code deployments.apps}. */
  public String qualifiedName() {
    return group.isEmpty() ? resource : resource + "." + group;
  }

  String apiVersion() {
    return group.isEmpty() ? version : group + "/" + version;
  }

  public ResourceDefinitionContext context() {
    return new ResourceDefinitionContext.Builder()
        .withGroup(group)
        .withVersion(version)
        .withPlural(resource)
        .withKind(kind)
        .withNamespaced(namespaced)
        .build();
  }
}
