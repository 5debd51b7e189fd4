package dev.stele.operator.sync;

import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.BackupStorageLocationRepositoryStatus;
import dev.stele.k8s.api.InvalidResourceException;
import dev.stele.k8s.api.RepositoryPhase;
import dev.stele.k8s.api.SteleApi;
import dev.stele.operator.backup.BackupDocument;
import dev.stele.operator.backup.BackupLabels;
import dev.stele.operator.backup.BackupRemoval;
import dev.stele.operator.backup.Manifests;
import dev.stele.operator.kube.Events;
import dev.stele.operator.kube.Pass;
import dev.stele.operator.kube.PhasedReconciler;
import dev.stele.operator.kube.Settings;
import dev.stele.operator.kube.StatusRecorder;
import dev.stele.operator.repository.Repositories;
import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import dev.stele.repo.SnapshotManifest;
import dev.stele.snapshot.SnapshotCatalog;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sync: every {@link Settings#backupSyncPeriod()}, each Ready repository's backup manifests (those
 * tagged {@code backup} that no tombstone forgets) become Backup resources in the repository's
 * namespace when the cluster has no Backup of that name — the way into a new cluster pointed at an
 * old bucket. A deleted backup's manifest is tombstoned, so it is never brought back; and a
 * finished Backup whose manifest is tombstoned, deleted in this cluster or another using the same
 * repository, is removed ({@link GoneBackup}), with an Event on the repository saying which went
 * and why. Removing it writes nothing and asks for no deletion: the tombstone already exists.
 *
 * <p>A pass lists the snapshots and the tombstones and reads only manifests this process has not
 * seen ({@link Manifests}).
 *
 * <p>Concurrency: the JOSDK runs one pass per repository at a time; {@link Manifests} is shared by
 * all and safe for that.
 */
@ControllerConfiguration(name = "backup-sync")
public final class BackupSyncReconciler
    extends PhasedReconciler<
        BackupStorageLocationRepository, BackupStorageLocationRepositoryStatus, RepositoryPhase> {
  private static final Logger LOG = LoggerFactory.getLogger(BackupSyncReconciler.class);

  private final Settings settings;
  private final Repositories repositories;
  private final StatusRecorder backups;

  public BackupSyncReconciler(KubernetesClient client, Settings settings) {
    this(client, settings, new Events(client, settings.clock()));
  }

  private BackupSyncReconciler(KubernetesClient client, Settings settings, Events events) {
    super(client, events, BackupStorageLocationRepositoryStatus::new);
    this.settings = settings;
    this.repositories = new Repositories(client, settings);
    this.backups = new StatusRecorder(client, events);
  }

  /**
   * Ready: one sync of the repository's backups. Any other phase: nothing yet. Either way, looks
   * again after {@link Settings#backupSyncPeriod()}.
   */
  @Override
  protected Duration advance(
      Pass<BackupStorageLocationRepository, BackupStorageLocationRepositoryStatus> pass,
      RepositoryPhase phase) {
    if (phase == RepositoryPhase.READY) {
      sync(pass);
    }
    return settings.backupSyncPeriod();
  }

  private void sync(
      Pass<BackupStorageLocationRepository, BackupStorageLocationRepositoryStatus> pass) {
    BackupStorageLocationRepository bslr = pass.resource();
    String ns = bslr.getMetadata().getNamespace();
    List<String> created = new ArrayList<>();
    List<GoneBackup> gone = List.of();
    try (Repository repo = repositories.open(bslr)) {
      Map<String, Backup> existing = new HashMap<>();
      for (Backup b : client.resources(Backup.class).inNamespace(ns).list().getItems()) {
        existing.put(b.getMetadata().getName(), b);
      }
      // Read after the Backups were listed: a deletion tombstones the manifest before it removes
      // the Backup, so a Backup missing from that list because it was deleted is tombstoned here.
      Map<String, List<Id>> tombstones = repo.tombstones();
      Map<String, SnapshotCatalog.Entry> live = liveBackups(repo, tombstones.keySet());
      Map<String, SnapshotCatalog.Entry> missing = new LinkedHashMap<>();
      live.forEach(
          (name, entry) -> {
            Backup b = existing.get(name);
            // A Backup synced without status was created by a pass that stopped before writing it.
            if (b == null || syncedWithoutStatus(b, entry.id())) {
              missing.put(name, entry);
            }
          });
      for (var e : missing.entrySet()) {
        if (create(repo, bslr, e.getValue(), existing.get(e.getKey()))) {
          created.add(e.getKey());
        }
      }
      gone = GoneBackup.among(repo, bslr.getMetadata().getName(), existing.values(), tombstones);
      for (GoneBackup g : gone) {
        BackupRemoval.remove(client, g.backup());
      }
    } catch (IOException | InvalidResourceException | RuntimeException e) {
      LOG.warn("sync of repository {}: {}", bslr.getMetadata().getName(), e.toString());
      pass.event(Events.WARNING, "SyncFailed", "backup sync: " + e.getMessage());
      return;
    }
    if (!created.isEmpty()) {
      pass.event(
          Events.NORMAL,
          "BackupsSynced",
          "created "
              + created.size()
              + " Backups found in the repository: "
              + firstTen(created, ", "));
    }
    if (!gone.isEmpty()) {
      pass.event(
          Events.NORMAL,
          "BackupsRemoved",
          "removed "
              + gone.size()
              + " Backups deleted from the repository: "
              + firstTen(gone.stream().map(g -> g.name() + ": " + g.why()).toList(), "; "));
    }
  }

  private static String firstTen(List<String> items, String separator) {
    return String.join(separator, items.size() <= 10 ? items : items.subList(0, 10))
        + (items.size() <= 10 ? "" : separator + "…");
  }

  private static boolean syncedWithoutStatus(Backup b, Id id) {
    var annotations = b.getMetadata().getAnnotations();
    return annotations != null
        && id.hex().equals(annotations.get(SteleApi.SYNCED_FROM_ANNOTATION))
        && (b.getStatus() == null || b.getStatus().phase == null);
  }

  /**
   * The manifest of each backup name among the repository's snapshots not in {@code forgotten} (the
   * newest, should two carry one name: the same name used in two clusters).
   */
  private static Map<String, SnapshotCatalog.Entry> liveBackups(
      Repository repo, Set<String> forgotten) throws IOException {
    Map<String, SnapshotCatalog.Entry> live = new HashMap<>();
    for (SnapshotCatalog.Entry e : Manifests.all(repo)) {
      SnapshotManifest m = e.manifest();
      String name = BackupLabels.of(m).name();
      if (name == null || !BackupLabels.isManifest(m) || forgotten.contains(e.name())) {
        continue;
      }
      SnapshotCatalog.Entry before = live.get(name);
      if (before == null || m.time().isAfter(before.manifest().time())) {
        live.put(name, e);
      }
    }
    return live;
  }

  /** Creates the Backup (unless {@code existing}) and writes its status; false if it was taken. */
  private boolean create(
      Repository repo,
      BackupStorageLocationRepository bslr,
      SnapshotCatalog.Entry entry,
      Backup existing) {
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
    backups.write(backup, null);
    return existing == null;
  }
}
