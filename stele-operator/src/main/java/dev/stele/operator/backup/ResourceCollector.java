package dev.stele.operator.backup;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stele.k8s.api.BackupSpec;
import dev.stele.operator.kube.ClusterDependencies;
import dev.stele.operator.kube.ResourceType;
import dev.stele.repo.ChunkType;
import dev.stele.repo.ChunkWriter;
import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Collects API resources into a snapshot's trees, with no temporary files: each object becomes one
 * JSON document, {@code resources/<group-or-core>/<resource>/<namespace>/<name>.json} (cluster
 * scoped objects under {@code _cluster}, a name no namespace can have), stored as a data chunk.
 * Server-set fields are removed and keys sorted, so an unchanged object encodes to the same bytes
 * and is stored once across backups; nodes carry no times, so unchanged directories are too.
 *
 * <p>Which cluster-scoped objects are taken is {@link ClusterScope}'s to say: all of a type, none,
 * or those the collected objects need ({@link ClusterDependencies}).
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
   * @param clusterScoped of the objects, those that are cluster-scoped (Namespace objects too)
   * @param pulledIn the cluster-scoped objects taken only because collected objects need them, each
   *     with why ({@code persistentvolumes pv-data: bound to claim app/data})
   * @param pods the pods collected, as read from the API server, whose volumes may be backed up
   */
  record Result(
      Id tree,
      int items,
      long bytes,
      long dirs,
      long itemsNew,
      int clusterScoped,
      List<String> pulledIn,
      List<String> warnings,
      List<String> errors,
      List<GenericKubernetesResource> pods) {}

  /**
   * Collects the objects {@code spec} selects into {@code writer}; the caller flushes the writer
   * and writes the snapshot.
   *
   * <p>First the namespaced objects and the Namespace objects of the selected namespaces, then the
   * cluster-scoped types {@link ClusterScope} takes in full, then, following {@link
   * ClusterDependencies} from everything collected so far, the cluster-scoped objects needed that
   * {@link ClusterScope} lets in.
   */
  Result collect(BackupSpec spec, ChunkWriter writer) throws IOException {
    ClusterScope scope = ClusterScope.of(spec);
    LabelListing labels = LabelListing.of(spec);
    Collection collection = new Collection(writer, namespaces(spec));
    Map<String, ResourceType> byName = new HashMap<>();
    for (ResourceType type : types) {
      byName.put(type.qualifiedName(), type);
      if (type.namespaced() && scope.selected(type)) {
        collection.addAll(type, list(type, collection.namespaces, labels, collection.errors));
      } else if (type.isNamespaces() && scope.selected(type)) {
        collection.addAll(type, namespaceObjects(type, collection.namespaces, collection.errors));
      }
    }
    for (ResourceType type : types) {
      if (!type.namespaced() && !type.isNamespaces() && scope.take(type) == ClusterScope.Take.ALL) {
        collection.addAll(type, listCluster(type, labels, collection.errors));
      }
    }
    pullIn(collection, scope, byName);
    Id tree = collection.resources.write(writer);
    return new Result(
        tree,
        collection.items,
        collection.bytes,
        collection.resources.directories(),
        collection.itemsNew,
        collection.clusterScoped,
        List.copyOf(collection.pulledIn),
        List.copyOf(collection.warnings),
        List.copyOf(collection.errors),
        List.copyOf(collection.pods));
  }

  /** The objects collected so far, written as they come. Not thread-safe. */
  private final class Collection {
    final ChunkWriter writer;
    final TreeBuilder resources = new TreeBuilder();
    final List<GenericKubernetesResource> pods = new ArrayList<>();
    final List<String> warnings = new ArrayList<>();
    final List<String> errors = new ArrayList<>();
    final List<String> pulledIn = new ArrayList<>();
    final Set<String> namespaces;

    /** {@code type name} of every cluster-scoped object collected. */
    final Set<String> cluster = new HashSet<>();

    /** What the objects collected need, not yet looked at. */
    final Deque<ClusterDependencies.Need> needs = new ArrayDeque<>();

    /** {@code namespace/name} of the ServiceAccounts collected. */
    final Set<String> accounts = new TreeSet<>();

    int items;
    int clusterScoped;
    long bytes;
    long itemsNew;

    Collection(ChunkWriter writer, NamespaceChoice choice) {
      this.writer = writer;
      this.namespaces = choice.names();
      warnings.addAll(choice.warnings());
    }

    void addAll(ResourceType type, List<GenericKubernetesResource> objects) throws IOException {
      for (GenericKubernetesResource object : objects) {
        add(type, object);
      }
    }

    void add(ResourceType type, GenericKubernetesResource object) throws IOException {
      String ns = type.namespaced() ? object.getMetadata().getNamespace() : null;
      String name = object.getMetadata().getName();
      if (!type.namespaced() && !cluster.add(type.qualifiedName() + " " + name)) {
        return;
      }
      byte[] json = document(object);
      Id id = repo.chunkId(json, 0, json.length);
      if (writer.claim(id)) {
        writer.put(id, ChunkType.DATA, json, 0, json.length);
        itemsNew++;
      }
      resources
          .dir(type.groupDirectory())
          .dir(type.resource())
          .dir(ns != null ? ns : CLUSTER)
          .file(name + ".json", json.length, List.of(id));
      if (type.isPods()) {
        pods.add(object);
      }
      if (type.group().isEmpty() && type.resource().equals("serviceaccounts")) {
        accounts.add(ns + "/" + name);
      }
      needs.addAll(
          ClusterDependencies.of(type.group(), type.resource(), ns, JSON.valueToTree(object)));
      items++;
      clusterScoped += type.namespaced() ? 0 : 1;
      bytes += json.length;
    }
  }

  /**
   * Follows what the collected objects need, and what that needs in turn: first the
   * ClusterRoleBindings of the collected ServiceAccounts, then each needed object that exists and
   * that the scope lets in.
   */
  private void pullIn(Collection c, ClusterScope scope, Map<String, ResourceType> byName)
      throws IOException {
    ResourceType bindings = byName.get(ClusterDependencies.CLUSTER_ROLE_BINDINGS);
    if (bindings != null
        && !c.accounts.isEmpty()
        && scope.take(bindings) != ClusterScope.Take.NONE) {
      for (GenericKubernetesResource b : listCluster(bindings, LabelListing.ALL, c.errors)) {
        List<String> bound = ClusterDependencies.boundAccounts(JSON.valueToTree(b), c.accounts);
        if (!bound.isEmpty()) {
          c.needs.add(
              new ClusterDependencies.Need(
                  bindings.qualifiedName(),
                  b.getMetadata().getName(),
                  "binds service account " + String.join(", ", bound)));
        }
      }
    }
    while (!c.needs.isEmpty()) {
      ClusterDependencies.Need need = c.needs.poll();
      ResourceType type = byName.get(need.type());
      if (type == null
          || scope.take(type) == ClusterScope.Take.NONE
          || c.cluster.contains(need.describe())) {
        continue;
      }
      GenericKubernetesResource object;
      try {
        object = client.genericKubernetesResources(type.context()).withName(need.name()).get();
      } catch (KubernetesClientException e) {
        c.errors.add("reading " + need.describe() + " (" + need.reason() + "): " + message(e));
        continue;
      }
      if (object != null) {
        c.add(type, object);
        c.pulledIn.add(need.describe() + ": " + need.reason());
      }
    }
  }

  /** The namespaces a backup takes, and a warning for each named one that does not exist. */
  private record NamespaceChoice(Set<String> names, List<String> warnings) {}

  private NamespaceChoice namespaces(BackupSpec spec) {
    List<String> warnings = new ArrayList<>();
    Set<String> existing = new TreeSet<>();
    client.namespaces().list().getItems().forEach(n -> existing.add(n.getMetadata().getName()));
    Set<String> chosen = new TreeSet<>();
    if (ClusterScope.all(spec.includedNamespaces)) {
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
    return new NamespaceChoice(chosen, warnings);
  }

  /**
   * The Namespace objects of the selected namespaces, whatever their labels and whatever {@code
   * includeClusterResources} says (as Velero), so that a restore can recreate them.
   */
  private List<GenericKubernetesResource> namespaceObjects(
      ResourceType type, Set<String> namespaces, List<String> errors) {
    List<GenericKubernetesResource> found = new ArrayList<>();
    var resources = client.genericKubernetesResources(type.context());
    for (String ns : namespaces) {
      try {
        GenericKubernetesResource object = resources.withName(ns).get();
        if (object != null) {
          found.add(object);
        }
      } catch (KubernetesClientException e) {
        errors.add("reading namespace " + ns + ": " + message(e));
      }
    }
    return found;
  }

  private List<GenericKubernetesResource> list(
      ResourceType type, Set<String> namespaces, LabelListing labels, List<String> errors) {
    List<GenericKubernetesResource> found = new ArrayList<>();
    var resources = client.genericKubernetesResources(type.context());
    for (String ns : namespaces) {
      try {
        found.addAll(labels.list(resources.inNamespace(ns)));
      } catch (KubernetesClientException e) {
        errors.add("listing " + type.qualifiedName() + " in " + ns + ": " + message(e));
      }
    }
    found.sort(
        (a, b) ->
            (a.getMetadata().getNamespace() + "/" + a.getMetadata().getName())
                .compareTo(b.getMetadata().getNamespace() + "/" + b.getMetadata().getName()));
    return found;
  }

  private List<GenericKubernetesResource> listCluster(
      ResourceType type, LabelListing labels, List<String> errors) {
    try {
      List<GenericKubernetesResource> found =
          new ArrayList<>(labels.list(client.genericKubernetesResources(type.context())));
      found.sort((a, b) -> a.getMetadata().getName().compareTo(b.getMetadata().getName()));
      return found;
    } catch (KubernetesClientException e) {
      errors.add("listing " + type.qualifiedName() + ": " + message(e));
      return List.of();
    }
  }

  private static String message(KubernetesClientException e) {
    return e.getStatus() != null && e.getStatus().getMessage() != null
        ? e.getStatus().getMessage()
        : e.getMessage();
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
