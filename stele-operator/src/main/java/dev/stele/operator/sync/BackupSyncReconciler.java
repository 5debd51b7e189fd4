package dev.stele.operator.sync;

import dev.stele.blob.BlobNotFoundException;
import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.StelApi;
import dev.stele.operator.BackupDocument;
import dev.stele.operator.Events;
import dev.stele.operator.InvalidResourceException;
import dev.stele.operator.Repositories;
import dev.stele.operator.Settings;
import dev.stele.repo.BlobKind;
import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import dev.stele.repo.SnapshotManifest;
import dev.stele.snapshot.SnapshotCatalog;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sync: every {@link Settings#backupSyncPeriod()}, each Ready repository's backup manifests (those
 * tagged {@code backup} that no tombstone forgets) become Backup resources in the repository's
 * namespace when the cluster has no Backup of that name — the way into a new cluster pointed at an
 * old bucket. A deleted backup's manifest is tombstoned, so it is never brought back.
 *
 * <p>A manifest is immutable, so the name it is for is read once per process and remembered; a pass
 * lists the snapshots and the tombstones and reads only manifests it has not seen.
 *
 * <p>Concurrency: the JOSDK runs one pass per repository at a time; the memory of manifests is
 * shared by all and safe for that.
 */
@ControllerConfiguration(name = "backup-sync")
public final class BackupSyncReconciler implements Reconciler<BackupStorageLocationRepository> {
  private static final Logger LOG = LoggerFactory.getLogger(BackupSyncReconciler.class);

  /** What a manifest says that sync needs: the backup it is for (null: not a backup), its time. */
  private record Seen(String backupName, Instant time) {}

  /** Every manifest read so far, by repository id and snapshot id. */
  private final Map<String, Seen> seen = new ConcurrentHashMap<>();

  private final KubernetesClient client;
  private final Settings settings;
  private final Events events;
  private final Repositories repositories;

  public BackupSyncReconciler(KubernetesClient client, Settings settings) {
    this.client = client;
    this.settings = settings;
    this.events = new Events(client, settings.clock());
    this.repositories = new Repositories(client, settings);
  }

  @Override
  public UpdateControl<BackupStorageLocationRepository> reconcile(
      BackupStorageLocationRepository bslr, Context<BackupStorageLocationRepository> context) {
    return UpdateControl.<BackupStorageLocationRepository>noUpdate()
        .rescheduleAfter(reconcile(bslr));
  }

  /** One pass; returns when to look again (always {@link Settings#backupSyncPeriod()}). */
  public Duration reconcile(BackupStorageLocationRepository cached) {
    String ns = cached.getMetadata().getNamespace();
    BackupStorageLocationRepository bslr =
        client
            .resources(BackupStorageLocationRepository.class)
            .inNamespace(ns)
            .withName(cached.getMetadata().getName())
            .get();
    if (bslr == null || Repositories.notReady(bslr) != null) {
      return settings.backupSyncPeriod();
    }
    List<String> created = new ArrayList<>();
    try (Repository repo = repositories.open(bslr)) {
      Map<String, Backup> existing = new HashMap<>();
      for (Backup b : client.resources(Backup.class).inNamespace(ns).list().getItems()) {
        existing.put(b.getMetadata().getName(), b);
      }
      Map<String, Id> live = liveBackups(repo, repo.tombstoned());
      Map<String, Id> missing = new LinkedHashMap<>();
      live.forEach(
          (name, id) -> {
            Backup b = existing.get(name);
            if (b == null) {
              missing.put(name, id);
            } else if (syncedWithoutStatus(b, id)) {
              // Created by a pass that stopped before it wrote the status.
              missing.put(name, id);
            }
          });
      if (!missing.isEmpty()) {
        // Read after the Backups were listed: a deletion tombstones the manifest before it removes
        // the Backup, so a Backup found missing above because it was deleted is tombstoned here.
        Set<String> forgotten = repo.tombstoned();
        missing.values().removeIf(id -> forgotten.contains(BlobKind.SNAPSHOT.nameOf(id)));
      }
      for (var e : missing.entrySet()) {
        if (create(repo, bslr, e.getValue(), existing.get(e.getKey()))) {
          created.add(e.getKey());
        }
      }
    } catch (IOException | InvalidResourceException | RuntimeException e) {
      LOG.warn("sync of repository {}: {}", bslr.getMetadata().getName(), e.toString());
      events.record(bslr, Events.WARNING, "SyncFailed", "backup sync: " + e.getMessage());
      return settings.backupSyncPeriod();
    }
    if (!created.isEmpty()) {
      events.record(
          bslr,
          Events.NORMAL,
          "BackupsSynced",
          "created "
              + created.size()
              + " Backups found in the repository: "
              + String.join(", ", created.size() <= 10 ? created : created.subList(0, 10))
              + (created.size() <= 10 ? "" : ", …"));
    }
    return settings.backupSyncPeriod();
  }

  private static boolean syncedWithoutStatus(Backup b, Id id) {
    var annotations = b.getMetadata().getAnnotations();
    return annotations != null
        && id.hex().equals(annotations.get(StelApi.SYNCED_FROM_ANNOTATION))
        && (b.getStatus() == null || b.getStatus().phase == null);
  }

  /**
   * The manifest of each backup name among the repository's snapshots not in {@code forgotten} (the
   * newest, should two carry one name: the same name used in two clusters).
   */
  private Map<String, Id> liveBackups(Repository repo, Set<String> forgotten) throws IOException {
    SnapshotCatalog catalog = new SnapshotCatalog(repo);
    String repoId = repo.format().id();
    Map<String, Id> live = new HashMap<>();
    Map<String, Instant> times = new HashMap<>();
    for (Id id : repo.list(BlobKind.SNAPSHOT)) {
      if (forgotten.contains(BlobKind.SNAPSHOT.nameOf(id))) {
        continue;
      }
      Seen seen = this.seen.get(repoId + "/" + id.hex());
      if (seen == null) {
        SnapshotManifest m;
        try {
          m = catalog.read(id);
        } catch (BlobNotFoundException e) {
          continue;
        }
        String label = m.labels().get(StelApi.BACKUP_NAME_LABEL);
        seen = new Seen(m.tags().contains(StelApi.BACKUP_TAG) ? label : null, m.time());
        this.seen.put(repoId + "/" + id.hex(), seen);
      }
      if (seen.backupName() == null) {
        continue;
      }
      Instant before = times.get(seen.backupName());
      if (before == null || seen.time().isAfter(before)) {
        live.put(seen.backupName(), id);
        times.put(seen.backupName(), seen.time());
      }
    }
    return live;
  }

  /** Creates the Backup (unless {@code existing}) and writes its status; false if it was taken. */
  private boolean create(
      Repository repo, BackupStorageLocationRepository bslr, Id id, Backup existing)
      throws IOException {
    SnapshotCatalog.Entry entry = new SnapshotCatalog.Entry(id, new SnapshotCatalog(repo).read(id));
    BackupDocument doc;
    try {
      doc = SyncedBackup.document(repo, entry);
    } catch (IOException e) {
      LOG.warn(
          "{}: backup.json unreadable, the Backup gets no spec: {}", entry.name(), e.toString());
      doc = null;
    }
    Backup backup = existing;
    if (backup == null) {
      try {
        backup = client.resource(SyncedBackup.resource(bslr, entry, doc)).create();
      } catch (KubernetesClientException e) {
        if (e.getCode() == HttpURLConnection.HTTP_CONFLICT) {
          return false;
        }
        throw e;
      }
    }
    backup.setStatus(SyncedBackup.status(bslr, entry, doc));
    client.resource(backup).updateStatus();
    return existing == null;
  }
}
