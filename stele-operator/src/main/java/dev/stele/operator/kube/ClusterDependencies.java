package dev.stele.operator.kube;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The cluster-scoped objects a namespaced application needs in a new cluster, found from the
 * objects that need them, Velero's rules: a custom resource needs its CustomResourceDefinition, a
 * PersistentVolumeClaim the PersistentVolume it is bound to and its StorageClass, a
 * PersistentVolume its StorageClass, a ClusterRoleBinding the ClusterRole it grants; and a
 * ClusterRoleBinding is needed by every ServiceAccount it names as a subject. A backup takes these
 * when it does not take every cluster-scoped object, and a restore of some namespaces brings them
 * back; both with these rules, so what one keeps the other finds.
 *
 * <p>Types are named as filters name them ({@code persistentvolumes}, {@code
 * storageclasses.storage.k8s.io}).
 */
public final class ClusterDependencies {
  public static final String CRDS = "customresourcedefinitions.apiextensions.k8s.io";
  public static final String VOLUMES = "persistentvolumes";
  public static final String CLAIMS = "persistentvolumeclaims";
  public static final String STORAGE_CLASSES = "storageclasses.storage.k8s.io";
  public static final String CLUSTER_ROLES = "clusterroles.rbac.authorization.k8s.io";
  public static final String CLUSTER_ROLE_BINDINGS =
      "clusterrolebindings.rbac.authorization.k8s.io";

  private ClusterDependencies() {}

  /**
   * A cluster-scoped object needed.
   *
   * @param type its type, as filters name it
   * @param name its name
   * @param reason why, for the log: {@code bound to claim app/data}
   */
  public record Need(String type, String name, String reason) {
    /** {@code persistentvolumes pv-data}. */
    public String describe() {
      return type + " " + name;
    }
  }

  /**
   * What {@code object}, of type {@code group}/{@code resource}, needs. {@code namespace} is its
   * namespace (null if cluster-scoped). The definition of a namespaced type of any group but the
   * core one is named: a caller looks whether there is one.
   */
  public static List<Need> of(String group, String resource, String namespace, JsonNode object) {
    String name = object.path("metadata").path("name").asText();
    String who = namespace == null ? name : namespace + "/" + name;
    String type = group.isEmpty() ? resource : resource + "." + group;
    List<Need> needs = new ArrayList<>();
    JsonNode spec = object.path("spec");
    switch (type) {
      case CLAIMS -> {
        add(needs, VOLUMES, spec.path("volumeName"), "bound to claim " + who);
        add(needs, STORAGE_CLASSES, spec.path("storageClassName"), "class of claim " + who);
      }
      case VOLUMES ->
          add(needs, STORAGE_CLASSES, spec.path("storageClassName"), "class of volume " + who);
      case CLUSTER_ROLE_BINDINGS -> {
        JsonNode ref = object.path("roleRef");
        if (ref.path("kind").asText().equals("ClusterRole")) {
          add(needs, CLUSTER_ROLES, ref.path("name"), "granted by clusterrolebinding " + who);
        }
      }
      default -> {
        if (namespace != null && !group.isEmpty()) {
          needs.add(new Need(CRDS, resource + "." + group, "defines " + type + " " + who));
        }
      }
    }
    return needs;
  }

  /**
   * The ServiceAccount subjects of ClusterRoleBinding {@code binding}, as {@code namespace/name},
   * that are among {@code accounts}; empty if it binds none of them.
   */
  public static List<String> boundAccounts(JsonNode binding, Set<String> accounts) {
    List<String> bound = new ArrayList<>();
    for (JsonNode s : binding.path("subjects")) {
      String account = s.path("namespace").asText() + "/" + s.path("name").asText();
      if (s.path("kind").asText().equals("ServiceAccount") && accounts.contains(account)) {
        bound.add(account);
      }
    }
    return bound;
  }

  private static void add(List<Need> needs, String type, JsonNode name, String reason) {
    if (name.isTextual() && !name.asText().isEmpty()) {
      needs.add(new Need(type, name.asText(), reason));
    }
  }
}
