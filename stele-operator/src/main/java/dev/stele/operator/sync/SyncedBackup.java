package dev.stele.operator.sync;

import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupSpec;
import dev.stele.k8s.api.BackupStatus;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.PodVolumePhase;
import dev.stele.k8s.api.RunPhase;
import dev.stele.k8s.api.SteleApi;
import dev.stele.operator.backup.BackupDocument;
import dev.stele.operator.backup.BackupLabels;
import dev.stele.repo.Repository;
import dev.stele.snapshot.Node;
import dev.stele.snapshot.SnapshotBrowser;
import dev.stele.snapshot.SnapshotCatalog;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.time.Instant;
import java.util.Map;

/**
 * The Backup resource a backup manifest found in a repository stands for: its spec from the {@code
 * backup.json} at the root of the snapshot (or, without one, only the repository), annotated {@code
 * stele.dev/synced-from=<manifest id>}, and its status from the manifest's labels. Such a Backup is
 * a record of what the repository holds; it is never run.
 */
final class SyncedBackup {
  private SyncedBackup() {}

  /**
   * The record of the backup, or null if the snapshot has no {@code backup.json}.
   *
   * @throws IOException if it is there but cannot be read
   */
  static BackupDocument document(Repository repo, SnapshotCatalog.Entry entry) throws IOException {
    SnapshotBrowser browser = new SnapshotBrowser(repo);
    Node node;
    try {
      node = browser.find(entry.manifest(), BackupDocument.FILE);
    } catch (NoSuchFileException e) {
      return null;
    }
    if (!node.isFile()) {
      return null;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    browser.cat(node, bytes);
    return BackupDocument.decode(bytes.toByteArray());
  }

  /** The Backup to create, without status (the API server ignores it on create). */
  static Backup resource(
      BackupStorageLocationRepository bslr, SnapshotCatalog.Entry entry, BackupDocument doc) {
    Backup backup = new Backup();
    backup.setMetadata(
        new ObjectMetaBuilder()
            .withName(BackupLabels.of(entry.manifest()).name())
            .withNamespace(bslr.getMetadata().getNamespace())
            .withAnnotations(Map.of(SteleApi.SYNCED_FROM_ANNOTATION, entry.id().hex()))
            .build());
    BackupSpec spec = doc == null || doc.spec() == null ? new BackupSpec() : doc.spec();
    // Where the backup is in this cluster, whatever the names were where it was made.
    spec.repository = bslr.getMetadata().getName();
    spec.storageLocation = bslr.getSpec().backupStorageLocation;
    backup.setSpec(spec);
    return backup;
  }

  /** The status the manifest's labels (and {@code backup.json}, if any) give. */
  static BackupStatus status(
      BackupStorageLocationRepository bslr, SnapshotCatalog.Entry entry, BackupDocument doc) {
    BackupLabels labels = BackupLabels.of(entry.manifest());
    BackupStatus s = new BackupStatus();
    s.phase = labels.phase() == null ? RunPhase.COMPLETED : labels.phase();
    s.items = labels.items();
    s.warnings = labels.warnings();
    s.errors = labels.errors();
    Instant expiration =
        labels.expiration() != null ? labels.expiration() : entry.manifest().expires();
    s.expiration = expiration == null ? null : expiration.toString();
    s.startTimestamp = entry.manifest().time().toString();
    s.snapshotID = entry.id().hex();
    s.manifest = entry.name();
    s.repository = bslr.getMetadata().getName();
    if (doc != null) {
      s.completionTimestamp = doc.completed();
      s.resourcesSnapshotID = doc.resourcesSnapshot();
      if (!doc.volumes().isEmpty()) {
        s.volumes = doc.volumes().size();
        s.volumesCompleted =
            (int)
                doc.volumes().stream()
                    .filter(v -> PodVolumePhase.COMPLETED.value().equals(v.phase()))
                    .count();
        s.volumesFailed =
            (int)
                doc.volumes().stream()
                    .filter(v -> PodVolumePhase.FAILED.value().equals(v.phase()))
                    .count();
      }
    }
    s.message = "synced from repository " + s.repository + " (" + entry.name() + ")";
    return s;
  }
}
