package dev.stele.operator.restore;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stele.k8s.api.PodRef;
import dev.stele.k8s.api.PodVolumePhase;
import dev.stele.k8s.api.Restore;
import dev.stele.k8s.api.SteleApi;
import dev.stele.operator.backup.BackupDocument;
import dev.stele.operator.hook.RestoreHookSpecs;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Creates the selected objects of a backup, in {@link RestoreOrder}, and asks for restored pods'
 * volumes to be filled ({@link VolumeFilling}). CustomResourceDefinitions come first, and nothing
 * else is created until they are Established ({@link CrdReadiness}); the custom resources of one
 * that never is fail. An object that already exists is left as it is (a warning) or, with {@code
 * existingResourcePolicy: update}, replaced by the backed-up one — except a PersistentVolume, which
 * is always left as it is (replacing it could cut it from its data or its claim); either way as the
 * restore's {@link ResourceModifiers} make it. A failure is recorded against its object and the
 * restore goes on.
 *
 * <p>A namespace an object goes into is created, bare, when neither the cluster nor the restore has
 * it (Velero does the same), so that excluding Namespace objects still restores their contents.
 */
final class ObjectRestorer {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final KubernetesClient client;
  private final Restore restore;
  private final String image;
  private final Outcome outcome;
  private final Set<String> namespaces = new HashSet<>();
  private final Duration crdTimeout;

  ObjectRestorer(
      KubernetesClient client,
      Restore restore,
      String image,
      Outcome outcome,
      Duration crdTimeout) {
    this.client = client;
    this.crdTimeout = crdTimeout;
    this.restore = restore;
    this.image = image;
    this.outcome = outcome;
  }

  void run(
      BackupContents contents,
      Selection selection,
      ResourceModifiers modifiers,
      boolean update,
      boolean restoreVolumes) {
    contents.warnings().forEach(outcome::warn);
    List<BackedUpObject> selected =
        selection.select(contents.objects()).stream().sorted(RestoreOrder.OBJECTS).toList();
    Set<String> restoredVolumes = new HashSet<>();
    for (BackedUpObject o : selected) {
      if (o.qualifiedResource().equals("persistentvolumes")) {
        restoredVolumes.add(o.name());
      }
    }
    Map<String, List<BackupDocument.Volume>> volumes =
        restoreVolumes ? volumesByPod(contents.document()) : Map.of();
    if (!restoreVolumes) {
      outcome.log("spec.restorePVs is false: no pod volume is restored");
    }
    Map<String, String> labels =
        Map.of(
            SteleApi.RESTORE_NAME_LABEL, VolumeFilling.labelValue(restore.getMetadata().getName()),
            SteleApi.BACKUP_NAME_LABEL, VolumeFilling.labelValue(outcome.backupName));
    outcome.log(
        "restoring "
            + selected.size()
            + " of "
            + contents.objects().size()
            + " objects of backup "
            + outcome.backupName);
    List<String> definitions =
        selected.stream().filter(BackedUpObject::isDefinition).map(BackedUpObject::name).toList();
    Map<String, String> unready = null;
    for (BackedUpObject o : selected) {
      if (unready == null && !o.isDefinition()) {
        unready = awaitDefinitions(definitions);
      }
      String target = o.namespaced() ? selection.target(o.namespace()) : null;
      if (unready != null && o.definition() != null && unready.containsKey(o.definition())) {
        String message =
            "not created: its CustomResourceDefinition " + o.definition() + " is not Established";
        outcome.error(o.describe() + ": " + message);
        outcome.item(
            o,
            target == null ? o.name() : target + "/" + o.name(),
            RestoreDocument.FAILED,
            message);
        continue;
      }
      ObjectNode doc =
          modify(modifiers, o, ServerFields.prepare(o, selection::target, restoredVolumes, labels));
      if (doc == null) {
        continue;
      }
      List<String> fill = o.isPod() ? fill(o, doc, volumes) : List.of();
      boolean execHooks = o.isPod() && hooks(o, doc);
      if (!fill.isEmpty()) {
        VolumeFilling.addWaitContainer(doc, fill, restore.getMetadata().getUid(), image);
      }
      if (target != null) {
        ensureNamespace(target);
      }
      GenericKubernetesResource created = create(o, target, doc, update);
      if (o.isNamespace() && created != null) {
        namespaces.add(created.getMetadata().getName());
      }
      if (created != null && !fill.isEmpty()) {
        request(o, created, fill, volumes.get(o.namespace() + "/" + o.name()));
      }
      if (created != null && execHooks) {
        outcome.hookPods.add(
            new Outcome.HookPod(
                created.getMetadata().getNamespace(),
                created.getMetadata().getName(),
                o.namespace(),
                false));
      }
    }
  }

  /**
   * Waits until the restored (or already present) definitions are Established; returns those that
   * are not, with why, each also an error of the restore.
   */
  private Map<String, String> awaitDefinitions(List<String> definitions) {
    if (definitions.isEmpty()) {
      return Map.of();
    }
    outcome.log(
        "waiting for "
            + definitions.size()
            + " CustomResourceDefinitions to be Established before their custom resources");
    Map<String, String> unready = CrdReadiness.await(client, definitions, crdTimeout);
    unready.forEach(
        (name, why) ->
            outcome.error(
                "customresourcedefinition "
                    + name
                    + " is not Established after "
                    + crdTimeout.toSeconds()
                    + " s ("
                    + why
                    + "): its custom resources are not restored"));
    if (unready.isEmpty()) {
      outcome.log("every CustomResourceDefinition is Established");
    }
    return unready;
  }

  /** The object as the resource modifiers make it; null, an error recorded, if a rule fails. */
  private ObjectNode modify(ResourceModifiers modifiers, BackedUpObject o, ObjectNode doc) {
    if (modifiers.isEmpty()) {
      return doc;
    }
    try {
      ResourceModifiers.Modified m = modifiers.apply(o, doc);
      if (!m.rules().isEmpty()) {
        outcome.log(o.describe() + ": resource modifier rules " + m.rules() + " applied");
      }
      return m.doc();
    } catch (IllegalArgumentException e) {
      String ns = doc.path("metadata").path("namespace").asText(null);
      String name = doc.path("metadata").path("name").asText();
      outcome.error(o.describe() + ": " + e.getMessage());
      outcome.item(o, ns == null ? name : ns + "/" + name, RestoreDocument.FAILED, e.getMessage());
      return null;
    }
  }

  /**
   * Adds the restore hooks' init containers to a pod about to be restored, before its own (the wait
   * container, added after, goes before them all, so they see the restored volumes); returns
   * whether the pod has post-restore exec hooks to run once it runs.
   */
  private boolean hooks(BackedUpObject pod, ObjectNode doc) {
    JsonNode meta = doc.path("metadata");
    Map<String, String> labels = strings(meta.path("labels"));
    Map<String, String> annotations = strings(meta.path("annotations"));
    var spec = restore.getSpec().hooks;
    String what = "pod " + pod.namespace() + "/" + pod.name();
    try {
      List<Container> init =
          RestoreHookSpecs.initContainers(pod.namespace(), labels, annotations, spec);
      if (!init.isEmpty()) {
        ArrayNode containers = JSON.createArrayNode();
        init.forEach(c -> containers.add(JSON.valueToTree(c)));
        doc.withObjectProperty("spec").path("initContainers").forEach(containers::add);
        doc.withObjectProperty("spec").set("initContainers", containers);
        outcome.log(
            what
                + ": init containers "
                + init.stream().map(Container::getName).toList()
                + " added by restore hooks");
      }
    } catch (IllegalArgumentException e) {
      outcome.error(what + ": init hook not added: " + e.getMessage());
    }
    try {
      return !RestoreHookSpecs.execHooks(pod.namespace(), labels, annotations, spec).isEmpty();
    } catch (IllegalArgumentException e) {
      outcome.error(what + ": post-restore hooks not run: " + e.getMessage());
      return false;
    }
  }

  private static Map<String, String> strings(JsonNode object) {
    Map<String, String> out = new HashMap<>();
    object.properties().forEach(e -> out.put(e.getKey(), e.getValue().asText()));
    return out;
  }

  /** The completed volumes of each pod, by {@code namespace/pod} as backed up. */
  private Map<String, List<BackupDocument.Volume>> volumesByPod(BackupDocument document) {
    Map<String, List<BackupDocument.Volume>> byPod = new HashMap<>();
    if (document == null) {
      return byPod;
    }
    for (BackupDocument.Volume v : document.volumes()) {
      byPod.computeIfAbsent(v.namespace() + "/" + v.pod(), k -> new ArrayList<>()).add(v);
    }
    return byPod;
  }

  /** The volumes of this pod to fill: backed up, completed, and in its spec. */
  private List<String> fill(
      BackedUpObject pod, ObjectNode doc, Map<String, List<BackupDocument.Volume>> volumes) {
    List<String> names = new ArrayList<>();
    List<String> declared = VolumeFilling.declared(doc);
    for (BackupDocument.Volume v :
        volumes.getOrDefault(pod.namespace() + "/" + pod.name(), List.of())) {
      String which = "volume " + v.volume() + " of pod " + pod.namespace() + "/" + pod.name();
      if (!PodVolumePhase.COMPLETED.value().equals(v.phase()) || v.snapshotID() == null) {
        outcome.warn(
            which
                + " was not backed up ("
                + v.phase()
                + (v.message() == null ? "" : ": " + v.message())
                + "); it starts empty");
      } else if (!declared.contains(v.volume())) {
        outcome.warn(which + " is not in the pod's spec; not restored");
      } else {
        names.add(v.volume());
      }
    }
    return names;
  }

  private void ensureNamespace(String ns) {
    if (namespaces.contains(ns)) {
      return;
    }
    try {
      if (client.namespaces().withName(ns).get() == null) {
        client
            .namespaces()
            .resource(
                new NamespaceBuilder()
                    .withNewMetadata()
                    .withName(ns)
                    .addToLabels(
                        SteleApi.RESTORE_NAME_LABEL,
                        VolumeFilling.labelValue(restore.getMetadata().getName()))
                    .endMetadata()
                    .build())
            .create();
        outcome.log("created namespace " + ns + " (its Namespace object is not restored)");
      }
      namespaces.add(ns);
    } catch (KubernetesClientException e) {
      outcome.warn("namespace " + ns + " could not be created: " + message(e));
    }
  }

  /** Creates (or replaces) the object; returns it as created, or null if it was not created. */
  private GenericKubernetesResource create(
      BackedUpObject o, String target, ObjectNode doc, boolean update) {
    String name = doc.path("metadata").path("name").asText();
    String as = target == null ? name : target + "/" + name;
    var type = client.genericKubernetesResources(o.context());
    var resources = target == null ? type : type.inNamespace(target);
    GenericKubernetesResource object = JSON.convertValue(doc, GenericKubernetesResource.class);
    try {
      GenericKubernetesResource created = resources.resource(object).create();
      outcome.restored++;
      outcome.item(o, as, RestoreDocument.RESTORED, null);
      return created;
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        String why = message(e);
        if (e.getCode() == 404 && o.definition() != null) {
          why += " (no Established CustomResourceDefinition " + o.definition() + " serves it)";
        }
        outcome.error(o.describe() + ": " + why);
        outcome.item(o, as, RestoreDocument.FAILED, why);
        return null;
      }
    }
    if (!update || o.isVolume()) {
      String why =
          update
              ? "exists in the cluster; a PersistentVolume that exists is always left as it is"
              : "exists in the cluster; left as it is (existingResourcePolicy none)";
      outcome.skipped++;
      outcome.warn(o.describe() + " as " + as + " " + why);
      outcome.item(o, as, RestoreDocument.SKIPPED, why);
      return null;
    }
    try {
      GenericKubernetesResource live = resources.withName(name).get();
      if (live == null) {
        throw new KubernetesClientException("it existed a moment ago and is gone now");
      }
      object.getMetadata().setResourceVersion(live.getMetadata().getResourceVersion());
      resources.resource(object).update();
      outcome.restored++;
      outcome.item(o, as, RestoreDocument.UPDATED, "replaced the object in the cluster");
    } catch (KubernetesClientException e) {
      outcome.error(o.describe() + ": exists and could not be replaced: " + message(e));
      outcome.item(
          o, as, RestoreDocument.FAILED, "exists and could not be replaced: " + message(e));
    }
    return null;
  }

  private void request(
      BackedUpObject o,
      GenericKubernetesResource pod,
      List<String> fill,
      List<BackupDocument.Volume> backedUp) {
    var meta = pod.getMetadata();
    PodRef ref = new PodRef(meta.getNamespace(), meta.getName(), meta.getUid());
    for (String volume : fill) {
      String snapshot =
          backedUp.stream()
              .filter(v -> v.volume().equals(volume))
              .findFirst()
              .orElseThrow()
              .snapshotID();
      var pvr = VolumeFilling.request(restore, ref, volume, outcome.repository, snapshot);
      String name = pvr.getMetadata().getName();
      try {
        client.resource(pvr).create();
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409) {
          outcome.error(
              "volume "
                  + volume
                  + " of pod "
                  + ref.namespace
                  + "/"
                  + ref.name
                  + ": PodVolumeRestore not created, the pod waits in its init container: "
                  + message(e));
          continue;
        }
      }
      outcome.volumes.add(new Outcome.Requested(ref.namespace, ref.name, volume, snapshot, name));
      outcome.log(
          "PodVolumeRestore "
              + name
              + ": volume "
              + volume
              + " of pod "
              + ref.namespace
              + "/"
              + ref.name
              + " from snapshot "
              + snapshot
              + " ("
              + o.describe()
              + ")");
    }
  }

  static String message(KubernetesClientException e) {
    return e.getStatus() != null && e.getStatus().getMessage() != null
        ? e.getStatus().getMessage()
        : e.getMessage();
  }
}
