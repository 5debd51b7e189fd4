package dev.stele.operator.restore;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stele.operator.kube.ClusterDependencies;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.HashMap;
import java.util.Map;

/**
 * One API object as a backup holds it, at {@code
 * resources/<group|core>/<resource>/<namespace|_cluster>/<name>.json}.
 *
 * <p>The path names the plural resource, so an object is created with a context built from it and
 * the document's {@code apiVersion} and {@code kind}, with no discovery (which the mock API server
 * the tests use does not have, and which custom types would otherwise need).
 *
 * @param group the API group, empty for the core group
 * @param resource the plural resource name
 * @param namespace the namespace it was backed up from, null for cluster-scoped objects
 * @param name the object's name
 * @param json the document as backed up (never modified: {@link ServerFields} works on a copy)
 */
record BackedUpObject(
    String group, String resource, String namespace, String name, ObjectNode json) {

  /** As filters name the type: {@code configmaps}, {@code deployments.apps}. */
  String qualifiedResource() {
    return group.isEmpty() ? resource : resource + "." + group;
  }

  boolean namespaced() {
    return namespace != null;
  }

  boolean isNamespace() {
    return group.isEmpty() && resource.equals("namespaces");
  }

  boolean isVolume() {
    return group.isEmpty() && resource.equals("persistentvolumes");
  }

  boolean isDefinition() {
    return qualifiedResource().equals(ClusterDependencies.CRDS);
  }

  /**
   * The name of the CustomResourceDefinition that would define this object's type ({@code
   * widgets.example.com}), or null for the core group, whose types none defines.
   */
  String definition() {
    return group.isEmpty() ? null : resource + "." + group;
  }

  boolean isPod() {
    return group.isEmpty() && resource.equals("pods");
  }

  Map<String, String> labels() {
    Map<String, String> labels = new HashMap<>();
    JsonNode l = json.path("metadata").path("labels");
    l.properties().forEach(e -> labels.put(e.getKey(), e.getValue().asText()));
    return labels;
  }

  /** {@code configmaps app-a/settings}, {@code namespaces app-a}. */
  String describe() {
    return qualifiedResource() + " " + (namespace == null ? name : namespace + "/" + name);
  }

  /** How the client reaches objects of this type. */
  ResourceDefinitionContext context() {
    String apiVersion = json.path("apiVersion").asText();
    String version =
        apiVersion.contains("/") ? apiVersion.substring(apiVersion.indexOf('/') + 1) : apiVersion;
    return new ResourceDefinitionContext.Builder()
        .withGroup(group)
        .withVersion(version)
        .withPlural(resource)
        .withKind(json.path("kind").asText())
        .withNamespaced(namespaced())
        .build();
  }
}
