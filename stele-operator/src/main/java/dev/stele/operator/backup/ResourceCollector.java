package dev.stele.operator.backup;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stele.k8s.api.BackupSpec;
import dev.stele.operator.kube.ResourceType;
import dev.stele.repo.ChunkType;
import dev.stele.repo.ChunkWriter;
import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Collects API resources into a snapshot's trees, with no temporary files: each object becomes one
 * JSON document, {@code resources/<group-or-core>/<resource>/<namespace>/<name>.json} (cluster
 * scoped objects under {@code _cluster}, a name no namespace can have), stored as a data chunk.
 * Server-set fields are removed and keys sorted, so an unchanged object encodes to the same bytes
 * and is stored once across backups; nodes carry no times, so unchanged directories are too.
 */
final class ResourceCollector {
  /** The directory of cluster-scoped objects. */
  static final String CLUSTER = "_cluster";

  private static final ObjectMapper JSON =
      new ObjectMapper()
          .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
          .enable(SerializationFeature.INDENT_OUTPUT);

  private final KubernetesClient client;
  private final List<ResourceType> types;
  private final Repository repo;

  ResourceCollector(KubernetesClient client, List<ResourceType> types, Repository repo) {
    this.client = client;
    this.types = types;
    this.repo = repo;
  }

  /**
   * What was collected.
   *
   * @param tree the {@code resources} directory's tree chunk
   * @param items objects collected
   * @param bytes bytes of their JSON documents
   * @param dirs directories written
   * @param itemsNew objects whose document was not in the repository yet
   * @param pods the pods collected, as read from the API server, whose volumes may be backed up
   */
  record Result(
      Id tree,
      int items,
      long bytes,
      long dirs,
      long itemsNew,
      List<String> warnings,
      List<String> errors,
      List<GenericKubernetesResource> pods) {}

  /**
   * Collects the objects {@code spec} selects into {@code writer}; the caller flushes the writer
   * and writes the snapshot.
   */
  Result collect(BackupSpec spec, ChunkWriter writer) throws IOException {
    List<String> warnings = new ArrayList<>();
    List<String> errors = new ArrayList<>();
    Set<String> namespaces = namespaces(spec, warnings);
    LabelListing labels = new LabelListing(spec);
    TreeBuilder resources = new TreeBuilder();
    List<GenericKubernetesResource> pods = new ArrayList<>();
    int items = 0;
    long bytes = 0;
    long itemsNew = 0;
    for (ResourceType type : types) {
      if (!selected(type, spec)) {
        continue;
      }
      for (GenericKubernetesResource object : list(type, namespaces, labels, errors)) {
        byte[] json = document(object);
        Id id = repo.chunkId(json, 0, json.length);
        if (writer.claim(id)) {
          writer.put(id, ChunkType.DATA, json, 0, json.length);
          itemsNew++;
        }
        String ns = object.getMetadata().getNamespace();
        resources
            .dir(type.groupDirectory())
            .dir(type.resource())
            .dir(type.namespaced() && ns != null ? ns : CLUSTER)
            .file(object.getMetadata().getName() + ".json", json.length, List.of(id));
        if (type.isPods()) {
          pods.add(object);
        }
        items++;
        bytes += json.length;
      }
    }
    Id tree = resources.write(writer);
    return new Result(
        tree,
        items,
        bytes,
        resources.directories(),
        itemsNew,
        List.copyOf(warnings),
        List.copyOf(errors),
        List.copyOf(pods));
  }

  private Set<String> namespaces(BackupSpec spec, List<String> warnings) {
    Set<String> existing = new TreeSet<>();
    client.namespaces().list().getItems().forEach(n -> existing.add(n.getMetadata().getName()));
    Set<String> chosen = new TreeSet<>();
    if (spec.includedNamespaces == null
        || spec.includedNamespaces.isEmpty()
        || spec.includedNamespaces.contains("*")) {
      chosen.addAll(existing);
    } else {
      for (String ns : spec.includedNamespaces) {
        if (!existing.contains(ns)) {
          warnings.add("namespace " + ns + " does not exist");
        }
        chosen.add(ns);
      }
    }
    if (spec.excludedNamespaces != null) {
      chosen.removeAll(spec.excludedNamespaces);
    }
    return chosen;
  }

  private static boolean selected(ResourceType type, BackupSpec spec) {
    if (type.resource().equals("namespaces")
        && Boolean.FALSE.equals(spec.includeClusterResources)) {
      return false;
    }
    if (spec.excludedResources != null && names(spec.excludedResources, type)) {
      return false;
    }
    return spec.includedResources == null
        || spec.includedResources.isEmpty()
        || spec.includedResources.contains("*")
        || names(spec.includedResources, type);
  }

  private static boolean names(List<String> list, ResourceType type) {
    return list.contains(type.qualifiedName()) || list.contains(type.resource());
  }

  private List<GenericKubernetesResource> list(
      ResourceType type, Set<String> namespaces, LabelListing labels, List<String> errors) {
    List<GenericKubernetesResource> found = new ArrayList<>();
    var resources = client.genericKubernetesResources(type.context());
    for (String ns : namespaces) {
      try {
        if (!type.namespaced()) {
          // Only Namespace objects are cluster-scoped here: those of the selected namespaces,
          // whatever their labels, so that a restore can recreate them.
          GenericKubernetesResource object = resources.withName(ns).get();
          if (object != null) {
            found.add(object);
          }
        } else {
          found.addAll(labels.list(resources.inNamespace(ns)));
        }
      } catch (KubernetesClientException e) {
        errors.add(
            "listing "
                + type.qualifiedName()
                + " in "
                + ns
                + ": "
                + (e.getStatus() != null && e.getStatus().getMessage() != null
                    ? e.getStatus().getMessage()
                    : e.getMessage()));
      }
    }
    found.sort(
        (a, b) ->
            (a.getMetadata().getNamespace() + "/" + a.getMetadata().getName())
                .compareTo(b.getMetadata().getNamespace() + "/" + b.getMetadata().getName()));
    return found;
  }

  /** The object as restorable JSON: server-set fields removed, keys sorted. */
  static byte[] document(GenericKubernetesResource object) throws IOException {
    ObjectNode node = JSON.valueToTree(object);
    node.remove("status");
    JsonNode meta = node.get("metadata");
    if (meta instanceof ObjectNode m) {
      m.remove(
          List.of(
              "uid",
              "resourceVersion",
              "managedFields",
              "creationTimestamp",
              "generation",
              "selfLink"));
    }
    Object sorted = JSON.treeToValue(node, Object.class);
    return JSON.writeValueAsBytes(sorted);
  }
}
