package dev.stele.cli;

import dev.stele.k8s.api.BackupStorageLocationServer;
import dev.stele.k8s.api.PodRef;
import dev.stele.k8s.api.PodVolumeRestore;
import dev.stele.k8s.api.PodVolumeRestoreSpec;
import dev.stele.k8s.api.PodVolumeStatus;
import dev.stele.server.RestoreRequests;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.security.SecureRandom;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * Users' restore requests as PodVolumeRestores in the server's namespace (where the operator keeps
 * them and the node agents serve them), with {@code requestedBy} set: the node agent waits for an
 * admin's {@code stele.dev/approved-by} annotation before it writes anything. The target is the pod
 * of the snapshot's name, which the node agent looks up; the server reads no pod.
 */
final class PodVolumeRequests implements RestoreRequests {
  private static final SecureRandom RANDOM = new SecureRandom();

  private final KubernetesClient client;
  private final BackupStorageLocationServer on;

  PodVolumeRequests(KubernetesClient client, BackupStorageLocationServer on) {
    this.client = client;
    this.on = on;
  }

  @Override
  public Request create(Ask ask) throws IOException {
    var spec = new PodVolumeRestoreSpec();
    spec.pod = new PodRef(ask.namespace(), ask.pod(), null);
    spec.volume = ask.volume();
    spec.repository = on.getSpec().backupStorageLocationRepositoryRef;
    spec.snapshotID = ask.snapshot();
    spec.paths = List.of(ask.path());
    spec.requestedBy = ask.user();
    spec.overwrite = ask.overwrite();
    var pvr = new PodVolumeRestore();
    pvr.setMetadata(
        new ObjectMetaBuilder()
            .withNamespace(on.getMetadata().getNamespace())
            .withName(name(ask))
            .build());
    pvr.setSpec(spec);
    try {
      return listed(client.resource(pvr).create());
    } catch (KubernetesClientException e) {
      throw new IOException("creating a PodVolumeRestore: " + e.getMessage(), e);
    }
  }

  @Override
  public List<Request> list(String user) throws IOException {
    try {
      return client
          .resources(PodVolumeRestore.class)
          .inNamespace(on.getMetadata().getNamespace())
          .list()
          .getItems()
          .stream()
          .filter(r -> r.getSpec() != null && user.equals(r.getSpec().requestedBy))
          .sorted(Comparator.comparing(r -> String.valueOf(r.getMetadata().getCreationTimestamp())))
          .map(PodVolumeRequests::listed)
          .toList();
    } catch (KubernetesClientException e) {
      throw new IOException("listing PodVolumeRestores: " + e.getMessage(), e);
    }
  }

  /** {@code <pod>-<volume>-<8 hex digits>}, cut to a name Kubernetes takes. */
  private static String name(Ask ask) {
    String base =
        (ask.pod() + "-" + ask.volume()).toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "-");
    if (base.length() > 200) {
      base = base.substring(0, 200);
    }
    byte[] suffix = new byte[4];
    RANDOM.nextBytes(suffix);
    return base + "-" + HexFormat.of().formatHex(suffix);
  }

  private static Request listed(PodVolumeRestore r) {
    PodVolumeRestoreSpec s = r.getSpec();
    PodVolumeStatus status = r.getStatus();
    return new Request(
        r.getMetadata().getName(),
        s.snapshotID,
        s.pod.namespace,
        s.pod.name,
        s.volume,
        s.paths == null ? List.of() : s.paths,
        Boolean.TRUE.equals(s.overwrite),
        s.requestedBy,
        status == null || status.phase == null ? "New" : status.phase.value(),
        status == null || status.message == null ? "" : status.message);
  }
}
