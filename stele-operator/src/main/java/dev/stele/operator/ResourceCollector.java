package dev.stele.operator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stele.blob.BlobInfo;
import dev.stele.blob.Retention;
import dev.stele.k8s.api.BackupSpec;
import dev.stele.repo.ChunkType;
import dev.stele.repo.ChunkWriter;
import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import dev.stele.repo.RepositoryFormat;
import dev.stele.repo.SnapshotManifest;
import dev.stele.snapshot.Node;
import dev.stele.snapshot.Tree;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
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

  /** What was collected; the manifest is not written. */
  record Result(
      Id tree,
      int items,
      long bytes,
      long dirs,
      long itemsNew,
      long chunksNew,
      long bytesNew,
      long bytesStored,
      Instant expires,
      List<String> warnings,
      List<String> errors) {

    SnapshotManifest manifest(Instant started, Clock clock, Map<String, String> labels) {
      double seconds = Math.max(0, clock.millis() - started.toEpochMilli()) / 1000.0;
      return new SnapshotManifest(
          SnapshotManifest.VERSION,
          started,
          "kubernetes",
          "stele-operator",
          List.of("/resources"),
          List.of("backup"),
          null,
          tree.hex(),
          expires,
          new SnapshotManifest.Stats(
              items,
              dirs,
              bytes,
              itemsNew,
              chunksNew,
              bytesNew,
              bytesStored,
              errors.size(),
              seconds),
          labels);
    }
  }

  /** A directory being built: subdirectories and files by name. */
  private static final class Dir {
    final Map<String, Dir> dirs = new TreeMap<>();
    final Map<String, Node> files = new TreeMap<>();

    Dir dir(String name) {
      return dirs.computeIfAbsent(name, n -> new Dir());
    }
  }

  Result collect(BackupSpec spec, Instant expires) throws IOException {
    List<String> warnings = new ArrayList<>();
    List<String> errors = new ArrayList<>();
    Set<String> namespaces = namespaces(spec, warnings);
    Map<String, String> labels =
        spec.labelSelector == null || spec.labelSelector.getMatchLabels() == null
            ? Map.of()
            : spec.labelSelector.getMatchLabels();
    if (spec.labelSelector != null
        && spec.labelSelector.getMatchExpressions() != null
        && !spec.labelSelector.getMatchExpressions().isEmpty()) {
      throw new IllegalArgumentException(
          "spec.labelSelector.matchExpressions is not supported yet: use matchLabels");
    }
    repo.reloadIndex();
    repo.loadIndex();
    Dir resources = new Dir();
    int items = 0;
    long bytes = 0;
    long itemsNew = 0;
    try (ChunkWriter writer = repo.newWriter(2, expires)) {
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
              .files
              .put(object.getMetadata().getName() + ".json", file(object, json.length, id));
          items++;
          bytes += json.length;
        }
      }
      Dir root = new Dir();
      root.dirs.put("resources", resources);
      long[] dirs = new long[1];
      Id tree = write(writer, root, dirs);
      writer.flush();
      extendReused(writer, expires);
      return new Result(
          tree,
          items,
          bytes,
          dirs[0],
          itemsNew,
          writer.chunksStored(),
          writer.bytesNew(),
          writer.bytesStored(),
          expires,
          List.copyOf(warnings),
          List.copyOf(errors));
    }
  }

  private static Node file(GenericKubernetesResource object, long size, Id chunk) {
    return new Node(
        object.getMetadata().getName() + ".json",
        Node.Kind.FILE,
        0644,
        0,
        0,
        0,
        0,
        0,
        0,
        1,
        size,
        List.of(chunk),
        null,
        null);
  }

  private static Id write(ChunkWriter writer, Dir dir, long[] count) throws IOException {
    List<Node> nodes = new ArrayList<>(dir.files.values());
    for (var e : dir.dirs.entrySet()) {
      Id sub = write(writer, e.getValue(), count);
      nodes.add(
          new Node(
              e.getKey(), Node.Kind.DIRECTORY, 0755, 0, 0, 0, 0, 0, 0, 1, 0, List.of(), sub, null));
    }
    count[0]++;
    return writer.store(ChunkType.TREE, new Tree(nodes).encode());
  }

  /**
   * As {@code Backup} does before its manifest exists: packs of reused chunks and the format and
   * key blobs are made to last until the snapshot's expiry.
   */
  private void extendReused(ChunkWriter writer, Instant until) throws IOException {
    if (repo.format().retentionMode() == Retention.Mode.NONE) {
      return;
    }
    List<String> names = new ArrayList<>(new TreeSet<>(writer.reusedPacks()));
    names.add(RepositoryFormat.BLOB);
    for (BlobInfo key : repo.store().list("keys/")) {
      names.add(key.name());
    }
    for (String name : names) {
      repo.ensureRetained(name, until);
    }
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
      ResourceType type, Set<String> namespaces, Map<String, String> labels, List<String> errors) {
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
          found.addAll(resources.inNamespace(ns).withLabels(labels).list().getItems());
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
