package dev.stele.operator.restore;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stele.k8s.api.PodRef;
import dev.stele.k8s.api.PodVolumeRestore;
import dev.stele.k8s.api.PodVolumeRestoreSpec;
import dev.stele.k8s.api.Restore;
import dev.stele.k8s.api.SteleApi;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * How a restored pod gets its volumes' data before its containers start (Velero's restore helper,
 * Stele's names): the pod is created with a first init container, {@value #INIT_CONTAINER}, that
 * mounts each volume to fill at {@code /restores/<volume>} and runs {@code stele restore-wait
 * --restore-uid <uid> /restores/<volume>...}, which returns once the node agent has written {@code
 * .stele/<restore uid>} into every one. The node agent learns what to write from one {@link
 * PodVolumeRestore} per volume, created once the pod exists (it names the pod's uid).
 */
final class VolumeFilling {
  static final String INIT_CONTAINER = "stele-restore-wait";
  static final String MOUNT_ROOT = "/restores/";

  private VolumeFilling() {}

  /** The PodVolumeRestores of {@code restore}, by its uid. */
  static List<PodVolumeRestore> requests(KubernetesClient client, Restore restore) {
    return client
        .resources(PodVolumeRestore.class)
        .inNamespace(restore.getMetadata().getNamespace())
        .withLabel(SteleApi.RESTORE_UID_LABEL, restore.getMetadata().getUid())
        .list()
        .getItems();
  }

  /**
   * Puts the wait container first among the pod's init containers (replacing one a pod restored
   * earlier may have been backed up with).
   */
  static void addWaitContainer(
      ObjectNode pod, List<String> volumes, String restoreUid, String image) {
    ObjectNode spec = pod.withObjectProperty("spec");
    ArrayNode init = JsonNodeFactory.instance.arrayNode();
    ObjectNode wait = init.addObject();
    wait.put("name", INIT_CONTAINER);
    wait.put("image", image);
    ArrayNode command = wait.putArray("command");
    command.add("stele").add("restore-wait").add("--restore-uid").add(restoreUid);
    ArrayNode mounts = wait.putArray("volumeMounts");
    for (String volume : volumes) {
      command.add(MOUNT_ROOT + volume);
      mounts.addObject().put("name", volume).put("mountPath", MOUNT_ROOT + volume);
    }
    for (JsonNode c : spec.path("initContainers")) {
      if (!INIT_CONTAINER.equals(c.path("name").asText())) {
        init.add(c);
      }
    }
    spec.set("initContainers", init);
  }

  /** The names of the volumes in the pod's spec. */
  static List<String> declared(ObjectNode pod) {
    List<String> names = new java.util.ArrayList<>();
    for (JsonNode v : pod.path("spec").path("volumes")) {
      names.add(v.path("name").asText());
    }
    return names;
  }

  /** The request to fill {@code volume} of the restored {@code pod} from {@code snapshotID}. */
  static PodVolumeRestore request(
      Restore restore, PodRef pod, String volume, String repository, String snapshotID) {
    var meta = restore.getMetadata();
    var pvr = new PodVolumeRestore();
    pvr.setMetadata(
        new ObjectMetaBuilder()
            .withName(name(meta.getName(), pod, volume))
            .withNamespace(meta.getNamespace())
            .withLabels(
                Map.of(
                    SteleApi.RESTORE_NAME_LABEL, labelValue(meta.getName()),
                    SteleApi.RESTORE_UID_LABEL, meta.getUid()))
            .withOwnerReferences(
                new OwnerReferenceBuilder()
                    .withApiVersion(restore.getApiVersion())
                    .withKind(restore.getKind())
                    .withName(meta.getName())
                    .withUid(meta.getUid())
                    .withController(true)
                    .build())
            .build());
    var spec = new PodVolumeRestoreSpec();
    spec.pod = pod;
    spec.volume = volume;
    spec.repository = repository;
    spec.snapshotID = snapshotID;
    spec.restoreName = meta.getName();
    spec.restoreUID = meta.getUid();
    pvr.setSpec(spec);
    return pvr;
  }

  /**
   * {@code <restore>-<hash of pod and volume>}: the same for the same volume, so that a second
   * attempt finds the first one's request instead of making another.
   */
  static String name(String restore, PodRef pod, String volume) {
    String prefix = restore.length() > 242 ? restore.substring(0, 242) : restore;
    return prefix + "-" + hash(pod.namespace + "/" + pod.name + "/" + volume).substring(0, 10);
  }

  /** A label value (at most 63 characters): the name, or its start and a hash of all of it. */
  static String labelValue(String name) {
    return name.length() <= 63 ? name : name.substring(0, 56) + "-" + hash(name).substring(0, 6);
  }

  private static String hash(String s) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
