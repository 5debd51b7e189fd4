package dev.stele.operator.restore;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Turns a backed-up document into what is sent to the API server: without what the server sets or
 * must choose again in the new cluster, in its new namespace.
 *
 * <ul>
 *   <li>Every object: {@code status}; {@code metadata.uid}, {@code resourceVersion}, {@code
 *       creationTimestamp}, {@code generation}, {@code managedFields}, {@code selfLink}, deletion
 *       marks; and {@code ownerReferences}, whose uids name the old owners (Velero drops them too:
 *       the restored owners adopt their objects again by selector).
 *   <li>Service: the allocated {@code clusterIP(s)} (unless headless, {@code None}), {@code
 *       nodePort}s and {@code healthCheckNodePort}.
 *   <li>Pod: {@code spec.nodeName}, so that the scheduler places it.
 *   <li>PersistentVolumeClaim: {@code spec.volumeName} and the binding and provisioning
 *       annotations, unless the volume it was bound to is restored too, so that a new volume is
 *       provisioned; always {@code volume.kubernetes.io/selected-node}.
 *   <li>PersistentVolume: the uid and resourceVersion of its {@code claimRef}.
 *   <li>Job: the selector and the {@code controller-uid} labels the server generated from the old
 *       Job's uid (a new Job with them is refused), unless {@code manualSelector}.
 * </ul>
 *
 * Namespaces are mapped: the object's own, a Namespace object's name, a claim reference's, and the
 * namespace of subjects of role bindings.
 */
final class ServerFields {
  private static final List<String> METADATA =
      List.of(
          "uid",
          "resourceVersion",
          "creationTimestamp",
          "generation",
          "managedFields",
          "selfLink",
          "ownerReferences",
          "deletionTimestamp",
          "deletionGracePeriodSeconds");

  /** What binding and provisioning leave on a claim, naming the old volume and provisioner. */
  private static final List<String> CLAIM_BINDING =
      List.of(
          "pv.kubernetes.io/bind-completed",
          "pv.kubernetes.io/bound-by-controller",
          "volume.beta.kubernetes.io/storage-provisioner",
          "volume.kubernetes.io/storage-provisioner");

  private static final String SELECTED_NODE = "volume.kubernetes.io/selected-node";
  private static final List<String> JOB_LABELS =
      List.of("controller-uid", "batch.kubernetes.io/controller-uid");

  private ServerFields() {}

  /**
   * A copy of {@code o}'s document ready to create.
   *
   * @param target maps a namespace as backed up to where it is restored
   * @param restoredVolumes names of the PersistentVolumes this restore creates
   * @param labels added to the object's labels (which restore made it)
   */
  static ObjectNode prepare(
      BackedUpObject o,
      UnaryOperator<String> target,
      Set<String> restoredVolumes,
      Map<String, String> labels) {
    ObjectNode doc = o.json().deepCopy();
    doc.remove("status");
    ObjectNode meta = doc.withObjectProperty("metadata");
    meta.remove(METADATA);
    if (o.namespaced()) {
      meta.put("namespace", target.apply(o.namespace()));
    } else {
      meta.remove("namespace");
    }
    if (o.isNamespace()) {
      meta.put("name", target.apply(o.name()));
    }
    ObjectNode l = meta.withObjectProperty("labels");
    labels.forEach(l::put);
    ObjectNode spec = doc.path("spec") instanceof ObjectNode s ? s : null;
    switch (o.qualifiedResource()) {
      case "services" -> service(spec);
      case "pods" -> {
        if (spec != null) {
          spec.remove("nodeName");
        }
      }
      case "persistentvolumeclaims" -> claim(meta, spec, restoredVolumes);
      case "persistentvolumes" -> volume(spec, target);
      case "jobs.batch" -> job(spec);
      case "rolebindings.rbac.authorization.k8s.io",
          "clusterrolebindings.rbac.authorization.k8s.io" ->
          subjects(doc, target);
      default -> {}
    }
    return doc;
  }

  private static void service(ObjectNode spec) {
    if (spec == null) {
      return;
    }
    if (!"None".equals(spec.path("clusterIP").asText())) {
      spec.remove(List.of("clusterIP", "clusterIPs"));
    }
    spec.remove("healthCheckNodePort");
    for (JsonNode port : spec.path("ports")) {
      if (port instanceof ObjectNode p) {
        p.remove("nodePort");
      }
    }
  }

  private static void claim(ObjectNode meta, ObjectNode spec, Set<String> restoredVolumes) {
    JsonNode annotations = meta.path("annotations");
    if (annotations instanceof ObjectNode a) {
      a.remove(SELECTED_NODE);
    }
    if (spec == null) {
      return;
    }
    String volume = spec.path("volumeName").asText("");
    if (!restoredVolumes.contains(volume)) {
      spec.remove("volumeName");
      if (annotations instanceof ObjectNode a) {
        a.remove(CLAIM_BINDING);
      }
    }
  }

  private static void volume(ObjectNode spec, UnaryOperator<String> target) {
    if (spec != null && spec.path("claimRef") instanceof ObjectNode ref) {
      ref.remove(List.of("uid", "resourceVersion"));
      if (ref.path("namespace").isTextual()) {
        ref.put("namespace", target.apply(ref.path("namespace").asText()));
      }
    }
  }

  private static void job(ObjectNode spec) {
    if (spec == null || spec.path("manualSelector").asBoolean(false)) {
      return;
    }
    spec.remove("selector");
    if (spec.path("template").path("metadata").path("labels") instanceof ObjectNode labels) {
      labels.remove(JOB_LABELS);
    }
  }

  private static void subjects(ObjectNode doc, UnaryOperator<String> target) {
    for (JsonNode subject : doc.path("subjects")) {
      if (subject instanceof ObjectNode s && s.path("namespace").isTextual()) {
        s.put("namespace", target.apply(s.path("namespace").asText()));
      }
    }
  }
}
