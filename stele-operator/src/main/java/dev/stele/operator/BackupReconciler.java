package dev.stele.operator;

import static dev.stele.k8s.api.BackupStatus.COMPLETED;
import static dev.stele.k8s.api.BackupStatus.FAILED;
import static dev.stele.k8s.api.BackupStatus.IN_PROGRESS;
import static dev.stele.k8s.api.BackupStatus.PARTIALLY_FAILED;

import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupSpec;
import dev.stele.k8s.api.BackupStatus;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.StelApi;
import dev.stele.repo.BlobKind;
import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import dev.stele.repo.SnapshotManifest;
import dev.stele.snapshot.SnapshotCatalog;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles a {@link Backup}: resolves its repository, collects the selected API resources into a
 * snapshot ({@link ResourceCollector}), then writes the snapshot manifest once, with the final
 * phase and counts in its labels. The manifest is what makes the backup exist (write-once.md rule
 * 5): while the backup runs, only the resource's status says InProgress.
 *
 * <p>A Backup found InProgress at the start of a pass was left by a process that stopped during the
 * backup (a pass of this one always ends in a final phase). It is never run again: if its manifest
 * exists (found by the backup's uid label) the status is completed from it, otherwise it is Failed
 * with that reason. No pass writes a manifest when one with the backup's uid exists.
 */
@ControllerConfiguration(name = "backup")
public final class BackupReconciler implements Reconciler<Backup> {
  private static final Logger LOG = LoggerFactory.getLogger(BackupReconciler.class);

  /** Default {@code spec.ttl}, Velero's. */
  static final Duration DEFAULT_TTL = Duration.ofHours(720);

  static final String RESTARTED =
      "operator restarted during backup; nothing was written that makes it exist";

  private final KubernetesClient client;
  private final Settings settings;
  private final Events events;
  private final Repositories repositories;

  public BackupReconciler(KubernetesClient client, Settings settings) {
    this.client = client;
    this.settings = settings;
    this.events = new Events(client, settings.clock());
    this.repositories = new Repositories(client, settings);
  }

  @Override
  public UpdateControl<Backup> reconcile(Backup backup, Context<Backup> context) {
    Duration again = reconcile(backup);
    return again == null
        ? UpdateControl.noUpdate()
        : UpdateControl.<Backup>noUpdate().rescheduleAfter(again);
  }

  /** One pass; returns when to look again, or null when the backup is done. */
  Duration reconcile(Backup cached) {
    var annotations = cached.getMetadata().getAnnotations();
    if (annotations != null && annotations.containsKey(StelApi.SYNCED_FROM_ANNOTATION)) {
      // Created by sync from a manifest that exists already: a record, never run.
      return null;
    }
    // The cache may still hold the InProgress status this process wrote before it finished the
    // backup: decide from what the API server holds now.
    Backup backup =
        client
            .resources(Backup.class)
            .inNamespace(cached.getMetadata().getNamespace())
            .withName(cached.getMetadata().getName())
            .get();
    if (backup == null) {
      return null;
    }
    BackupStatus status = backup.getStatus() == null ? new BackupStatus() : backup.getStatus();
    if (COMPLETED.equals(status.phase)
        || PARTIALLY_FAILED.equals(status.phase)
        || FAILED.equals(status.phase)) {
      return null;
    }
    backup.setStatus(status);
    BackupSpec spec = backup.getSpec() == null ? new BackupSpec() : backup.getSpec();
    Duration ttl;
    try {
      ttl = Durations.parse(spec.ttl, DEFAULT_TTL);
    } catch (IllegalArgumentException e) {
      return finish(backup, FAILED, "spec.ttl: " + e.getMessage());
    }
    BackupStorageLocationRepository bslr;
    try {
      bslr =
          repositories.resolve(
              backup.getMetadata().getNamespace(), spec.repository, spec.storageLocation);
    } catch (InvalidResourceException e) {
      return finish(backup, FAILED, e.getMessage());
    }
    status.repository = bslr.getMetadata().getName();
    if (IN_PROGRESS.equals(status.phase)) {
      return recover(backup, bslr);
    }
    String why = Repositories.notReady(bslr);
    if (why != null) {
      if (!why.equals(status.message)) {
        status.message = why;
        client.resource(backup).updateStatus();
      }
      return settings.recheck();
    }
    Instant started = settings.clock().instant();
    status.phase = IN_PROGRESS;
    status.message = "collecting resources";
    status.startTimestamp = started.toString();
    status.expiration = started.plus(ttl).toString();
    backup = client.resource(backup).updateStatus();
    status = backup.getStatus();
    try (Repository repo = repositories.open(bslr)) {
      if (manifestOf(repo, backup) != null) {
        // Only a Backup recreated with the same uid could get here; never a second manifest.
        return finish(backup, FAILED, "a manifest for this backup already exists");
      }
      ResourceCollector.Result collected;
      try {
        collected =
            new ResourceCollector(client, settings.backupResources(), repo)
                .collect(spec, started.plus(ttl));
      } catch (IOException | RuntimeException e) {
        LOG.warn("backup {} failed", backup.getMetadata().getName(), e);
        return finish(backup, FAILED, "collecting resources: " + e.getMessage());
      }
      String phase = collected.errors().isEmpty() ? COMPLETED : PARTIALLY_FAILED;
      status.items = collected.items();
      status.warnings = collected.warnings().size();
      status.errors = collected.errors().size();
      status.chunksNew = collected.chunksNew();
      Map<String, String> labels = labels(backup, phase);
      SnapshotManifest manifest = collected.manifest(started, settings.clock(), labels);
      Id id;
      try {
        if (manifestOf(repo, backup) != null) {
          return finish(backup, FAILED, "a manifest for this backup already exists");
        }
        id = new SnapshotCatalog(repo).write(manifest);
      } catch (IOException | RuntimeException e) {
        LOG.warn("backup {}: manifest not written", backup.getMetadata().getName(), e);
        return finish(
            backup,
            FAILED,
            "writing the backup manifest failed, so the backup does not exist: " + e.getMessage());
      }
      status.snapshotID = id.hex();
      status.manifest = BlobKind.SNAPSHOT.nameOf(id);
      String message =
          collected.items()
              + " items"
              + (collected.errors().isEmpty()
                  ? ""
                  : "; errors: " + String.join("; ", first(collected.errors())))
              + (collected.warnings().isEmpty()
                  ? ""
                  : "; warnings: " + String.join("; ", first(collected.warnings())));
      return finish(backup, phase, message);
    } catch (IOException | InvalidResourceException | RuntimeException e) {
      return finish(backup, FAILED, "repository " + status.repository + ": " + e.getMessage());
    }
  }

  private static java.util.List<String> first(java.util.List<String> all) {
    return all.size() <= 5 ? all : all.subList(0, 5);
  }

  /** An InProgress backup this process is not running: complete it from its manifest, or fail. */
  private Duration recover(Backup backup, BackupStorageLocationRepository bslr) {
    BackupStatus status = backup.getStatus();
    SnapshotCatalog.Entry found;
    try (Repository repo = repositories.open(bslr)) {
      found = manifestOf(repo, backup);
    } catch (IOException | InvalidResourceException | RuntimeException e) {
      String why =
          "left InProgress by an operator that stopped; cannot yet check repository "
              + bslr.getMetadata().getName()
              + " for its manifest: "
              + e.getMessage();
      if (!why.equals(status.message)) {
        status.message = why;
        client.resource(backup).updateStatus();
      }
      return settings.recheck();
    }
    if (found == null) {
      return finish(backup, FAILED, RESTARTED);
    }
    Map<String, String> l = found.manifest().labels();
    status.snapshotID = found.id().hex();
    status.manifest = found.name();
    status.items = integer(l.get(StelApi.BACKUP_ITEMS_LABEL));
    status.warnings = integer(l.get(StelApi.BACKUP_WARNINGS_LABEL));
    status.errors = integer(l.get(StelApi.BACKUP_ERRORS_LABEL));
    String phase = l.getOrDefault(StelApi.BACKUP_PHASE_LABEL, COMPLETED);
    return finish(
        backup,
        phase,
        "completed from its manifest after the operator restarted (" + found.name() + ")");
  }

  private static Integer integer(String s) {
    try {
      return s == null ? null : Integer.valueOf(s);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private Duration finish(Backup backup, String phase, String message) {
    BackupStatus status = backup.getStatus();
    status.phase = phase;
    status.message = message;
    status.completionTimestamp = settings.clock().instant().toString();
    client.resource(backup).updateStatus();
    events.record(backup, FAILED.equals(phase) ? Events.WARNING : Events.NORMAL, phase, message);
    return null;
  }

  static Map<String, String> labels(Backup backup, String phase) {
    BackupStatus s = backup.getStatus();
    Map<String, String> labels = new HashMap<>();
    labels.put(StelApi.BACKUP_NAME_LABEL, backup.getMetadata().getName());
    labels.put(StelApi.BACKUP_NAMESPACE_LABEL, backup.getMetadata().getNamespace());
    labels.put(StelApi.BACKUP_UID_LABEL, uid(backup));
    labels.put(StelApi.BACKUP_PHASE_LABEL, phase);
    labels.put(StelApi.BACKUP_EXPIRATION_LABEL, s.expiration);
    labels.put(StelApi.BACKUP_ITEMS_LABEL, String.valueOf(s.items));
    labels.put(StelApi.BACKUP_WARNINGS_LABEL, String.valueOf(s.warnings));
    labels.put(StelApi.BACKUP_ERRORS_LABEL, String.valueOf(s.errors));
    return labels;
  }

  private static String uid(Backup backup) {
    String uid = backup.getMetadata().getUid();
    return uid == null
        ? backup.getMetadata().getNamespace() + "/" + backup.getMetadata().getName()
        : uid;
  }

  /**
   * The manifest written for this backup, forgotten or not, or null: every snapshot manifest is
   * read (one small blob each).
   */
  static SnapshotCatalog.Entry manifestOf(Repository repo, Backup backup) throws IOException {
    SnapshotCatalog catalog = new SnapshotCatalog(repo);
    String uid = uid(backup);
    for (Id id : repo.list(BlobKind.SNAPSHOT)) {
      SnapshotManifest m;
      try {
        m = catalog.read(id);
      } catch (dev.stele.blob.BlobNotFoundException e) {
        continue;
      }
      if (uid.equals(m.labels().get(StelApi.BACKUP_UID_LABEL))) {
        return new SnapshotCatalog.Entry(id, m);
      }
    }
    return null;
  }
}
