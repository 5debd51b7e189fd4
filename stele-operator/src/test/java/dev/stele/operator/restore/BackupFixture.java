package dev.stele.operator.restore;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupSpec;
import dev.stele.k8s.api.BackupStatus;
import dev.stele.k8s.api.RunPhase;
import dev.stele.k8s.api.SteleApi;
import dev.stele.operator.backup.BackupDocument;
import dev.stele.operator.backup.SmallSnapshot;
import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a finished backup the way the backup contract lays it out, for restores of pod volumes
 * before the backup reconciler takes them: one snapshot per completed volume (tag {@code
 * pod-volume}), then the backup's snapshot (tag {@code backup}) holding {@code backup.json} (with
 * each volume's snapshot id) and {@code resources/<group|core>/<resource>/<namespace|_cluster>/
 * <name>.json}; then a Backup resource that says Completed and names it.
 */
final class BackupFixture {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** A volume of a pod in the backup; {@code phase} Completed gets a snapshot with one file. */
  record PodVolume(String namespace, String pod, String volume, String phase, String message) {}

  /** What the fixture wrote: the Backup resource and each volume's snapshot, by pod/volume. */
  record Written(Backup backup, Map<String, String> volumeSnapshots) {}

  static Written write(
      RestoreFixture op, String name, List<HasMetadata> objects, List<PodVolume> volumes)
      throws Exception {
    var b = new Backup();
    b.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(RestoreFixture.NS).build());
    b.setSpec(new BackupSpec());
    b = op.client.resource(b).create();
    String uid = b.getMetadata().getUid();
    Instant expiration = op.clock.instant().plusSeconds(86400);
    Map<String, String> ids = new LinkedHashMap<>();
    Id snapshot;
    try (Repository repo = op.openRepository()) {
      List<BackupDocument.Volume> listed = new ArrayList<>();
      for (PodVolume v : volumes) {
        String id = null;
        if (v.phase().equals("Completed")) {
          id =
              SmallSnapshot.write(
                      repo,
                      Map.of(
                          "data/" + v.volume() + ".txt",
                          (v.pod() + "/" + v.volume()).getBytes(StandardCharsets.UTF_8)),
                      "/data",
                      List.of(SteleApi.POD_VOLUME_TAG),
                      Map.of(
                          SteleApi.PART_OF_LABEL, uid,
                          SteleApi.BACKUP_NAME_LABEL, name,
                          SteleApi.POD_NAMESPACE_LABEL, v.namespace(),
                          SteleApi.POD_NAME_LABEL, v.pod(),
                          SteleApi.VOLUME_LABEL, v.volume()),
                      expiration)
                  .hex();
          ids.put(v.pod() + "/" + v.volume(), id);
        }
        listed.add(
            new BackupDocument.Volume(
                v.namespace(), v.pod(), v.volume(), v.phase(), v.message(), id, 10));
      }
      Map<String, byte[]> files = new LinkedHashMap<>();
      for (HasMetadata o : objects) {
        String group = HasMetadata.getGroup(o.getClass());
        String ns = o.getMetadata().getNamespace();
        files.put(
            BackupDocument.RESOURCES
                + "/"
                + (group.isEmpty() ? "core" : group)
                + "/"
                + HasMetadata.getPlural(o.getClass())
                + "/"
                + (ns == null ? BackupContents.CLUSTER : ns)
                + "/"
                + o.getMetadata().getName()
                + ".json",
            JSON.writeValueAsBytes(o));
      }
      var document =
          new BackupDocument(
              BackupDocument.VERSION,
              name,
              RestoreFixture.NS,
              uid,
              new BackupSpec(),
              "Completed",
              op.clock.instant().toString(),
              op.clock.instant().toString(),
              expiration.toString(),
              objects.size(),
              List.of(),
              List.of(),
              null,
              listed);
      files.put(BackupDocument.FILE, document.encode());
      snapshot =
          SmallSnapshot.write(
              repo,
              files,
              "/resources",
              List.of(SteleApi.BACKUP_TAG),
              Map.of(
                  SteleApi.BACKUP_NAME_LABEL,
                  name,
                  SteleApi.BACKUP_NAMESPACE_LABEL,
                  RestoreFixture.NS,
                  SteleApi.BACKUP_UID_LABEL,
                  uid,
                  SteleApi.BACKUP_PHASE_LABEL,
                  "Completed"),
              expiration);
    }
    var status = new BackupStatus();
    status.phase = RunPhase.COMPLETED;
    status.repository = "default";
    status.snapshotID = snapshot.hex();
    status.expiration = expiration.toString();
    b.setStatus(status);
    return new Written(op.client.resource(b).updateStatus(), ids);
  }

  private BackupFixture() {}
}
