package dev.stele.operator.backup;

import static dev.stele.k8s.api.BackupStatus.COMPLETED;
import static dev.stele.k8s.api.BackupStatus.FAILED;
import static dev.stele.k8s.api.BackupStatus.IN_PROGRESS;
import static dev.stele.k8s.api.BackupStatus.PARTIALLY_FAILED;
import static dev.stele.k8s.api.BackupStatus.WAITING_FOR_VOLUMES;

import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupSpec;
import dev.stele.k8s.api.BackupStatus;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.PodRef;
import dev.stele.k8s.api.PodVolumeBackup;
import dev.stele.k8s.api.PodVolumeBackupSpec;
import dev.stele.k8s.api.PodVolumeStatus;
import dev.stele.k8s.api.SteleApi;
import dev.stele.operator.kube.Discovery;
import dev.stele.operator.kube.Durations;
import dev.stele.operator.kube.Events;
import dev.stele.operator.kube.InvalidResourceException;
import dev.stele.operator.kube.ResourceType;
import dev.stele.operator.kube.Settings;
import dev.stele.operator.kube.Stopping;
import dev.stele.operator.repository.Repositories;
import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import dev.stele.snapshot.SnapshotCatalog;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.Mappers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles a {@link Backup}. The backup exists once its manifest does (write-once.md rule 5);
 * until then only the resource's status tells its progress:
 *
 * <ol>
 *   <li><b>InProgress</b>: the selected API resources are collected into the resources part (see
 *       {@link BackupSnapshots}) and one {@link PodVolumeBackup} is created per selected pod volume
 *       ({@link VolumeSelection}), owned by the Backup.
 *   <li><b>WaitingForVolumes</b>: node agents fill the requests, each volume becoming a snapshot of
 *       its own; changes to them wake this reconciler.
 *   <li>When every request has finished, the backup's manifest is written once, and the phase
 *       becomes Completed, or PartiallyFailed when objects or volumes could not be backed up. A
 *       manifest the store refuses makes it Failed, with the store's answer.
 * </ol>
 *
 * <p>A process that stops at any point leaves a phase that says what to do. InProgress at the start
 * of a pass was left mid-collection: completed from its manifest if one exists, otherwise Failed
 * with that reason (it is never collected twice). WaitingForVolumes is resumed: the requests live
 * in the cluster, the parts in the repository. No pass writes a manifest when one with the backup's
 * uid exists. A Backup created by sync (annotated {@code stele.dev/synced-from}) is never run.
 */
@ControllerConfiguration(name = "backup")
public final class BackupReconciler implements Reconciler<Backup> {
  private static final Logger LOG = LoggerFactory.getLogger(BackupReconciler.class);

  /** Default {@code spec.ttl}, Velero's. */
  static final Duration DEFAULT_TTL = Duration.ofDays(30);

  public static final String RESTARTED =
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
  public List<EventSource<?, Backup>> prepareEventSources(EventSourceContext<Backup> context) {
    var requests =
        InformerEventSourceConfiguration.from(PodVolumeBackup.class, Backup.class)
            // Under WATCH_NAMESPACE the operator's Role covers one namespace: so must the watch.
            .withNamespacesInheritedFromController()
            .withSecondaryToPrimaryMapper(Mappers.fromOwnerReferences(Backup.class))
            .build();
    return List.of(new InformerEventSource<>(requests, context));
  }

  @Override
  public UpdateControl<Backup> reconcile(Backup backup, Context<Backup> context) {
    Duration again = reconcile(backup);
    return again == null
        ? UpdateControl.noUpdate()
        : UpdateControl.<Backup>noUpdate().rescheduleAfter(again);
  }

  /** One pass; returns when to look again, or null when the backup is done. */
  public Duration reconcile(Backup cached) {
    // The cache may still hold a status this process has since replaced: decide from what the API
    // server holds now.
    Backup backup =
        client
            .resources(Backup.class)
            .inNamespace(cached.getMetadata().getNamespace())
            .withName(cached.getMetadata().getName())
            .get();
    if (backup == null || synced(backup)) {
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
    if (WAITING_FOR_VOLUMES.equals(status.phase)) {
      return awaitVolumes(backup, bslr);
    }
    String why = Repositories.notReady(bslr);
    if (why != null) {
      note(backup, why);
      return settings.recheck();
    }
    return start(backup, bslr, ttl);
  }

  private static boolean synced(Backup backup) {
    var notes = backup.getMetadata().getAnnotations();
    return notes != null && notes.containsKey(SteleApi.SYNCED_FROM_ANNOTATION);
  }

  /** Collects the resources, writes them as a part, and asks for the volumes. */
  private Duration start(Backup backup, BackupStorageLocationRepository bslr, Duration ttl) {
    BackupStatus status = backup.getStatus();
    Instant started = settings.clock().instant();
    status.phase = IN_PROGRESS;
    status.message = "collecting resources";
    status.startTimestamp = started.toString();
    status.expiration = started.plus(ttl).toString();
    backup = client.resource(backup).updateStatus();
    status = backup.getStatus();
    try (Repository repo = repositories.open(bslr)) {
      BackupSnapshots snapshots = new BackupSnapshots(repo, settings.clock());
      if (snapshots.manifestOf(backup) != null) {
        // Only a Backup recreated with the same uid could get here; never a second manifest.
        return finish(backup, FAILED, "a manifest for this backup already exists");
      }
      BackupSnapshots.Part part;
      try {
        part = snapshots.writeResources(backup, new ResourceCollector(client, types(), repo));
      } catch (IOException | RuntimeException e) {
        LOG.warn("backup {} failed", backup.getMetadata().getName(), e);
        return fail(backup, "collecting resources: " + e.getMessage(), e);
      }
      var collected = part.collected();
      status.resourcesSnapshotID = part.id().hex();
      status.items = collected.items();
      status.warnings = part.warnings().size();
      status.errors = collected.errors().size();
      List<VolumeSelection.PodVolume> volumes = part.volumes();
      if (volumes.isEmpty()) {
        return complete(backup, snapshots, List.of());
      }
      for (VolumeSelection.PodVolume volume : volumes) {
        request(backup, volume);
      }
      status.phase = WAITING_FOR_VOLUMES;
      status.volumes = volumes.size();
      status.volumesCompleted = 0;
      status.volumesFailed = 0;
      status.message = "waiting for " + volumes.size() + " pod volumes";
      client.resource(backup).updateStatus();
      events.record(backup, Events.NORMAL, WAITING_FOR_VOLUMES, status.message);
      return settings.recheck();
    } catch (IOException | InvalidResourceException | RuntimeException e) {
      return fail(backup, "repository " + status.repository + ": " + e.getMessage(), e);
    }
  }

  private List<ResourceType> types() {
    return settings.backupResources().isEmpty()
        ? Discovery.types(client)
        : settings.backupResources();
  }

  /** Creates the request for one volume, unless a pass before a restart did. */
  private void request(Backup backup, VolumeSelection.PodVolume volume) {
    PodVolumeBackup pvb = new PodVolumeBackup();
    pvb.getMetadata().setNamespace(backup.getMetadata().getNamespace());
    pvb.getMetadata().setName(requestName(backup, volume));
    pvb.getMetadata()
        .setLabels(
            Map.of(
                SteleApi.BACKUP_NAME_LABEL,
                backup.getMetadata().getName(),
                SteleApi.BACKUP_UID_LABEL,
                BackupSnapshots.uid(backup)));
    pvb.getMetadata()
        .setOwnerReferences(
            List.of(
                new OwnerReferenceBuilder()
                    .withApiVersion(backup.getApiVersion())
                    .withKind(backup.getKind())
                    .withName(backup.getMetadata().getName())
                    .withUid(backup.getMetadata().getUid())
                    .withController(true)
                    .build()));
    PodVolumeBackupSpec spec = new PodVolumeBackupSpec();
    spec.node = volume.node();
    spec.pod = new PodRef(volume.namespace(), volume.pod(), volume.podUid());
    spec.volume = volume.volume();
    spec.repository = backup.getStatus().repository;
    spec.backupName = backup.getMetadata().getName();
    spec.backupUID = BackupSnapshots.uid(backup);
    spec.expiration = backup.getStatus().expiration;
    pvb.setSpec(spec);
    try {
      client.resource(pvb).create();
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        throw e;
      }
    }
  }

  /** {@code <backup>-<8 hex digits of the volume's identity>}: the same on every pass. */
  static String requestName(Backup backup, VolumeSelection.PodVolume volume) {
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256")
              .digest(
                  (volume.namespace() + "/" + volume.pod() + "/" + volume.volume())
                      .getBytes(StandardCharsets.UTF_8));
      String name = backup.getMetadata().getName();
      return (name.length() > 200 ? name.substring(0, 200) : name)
          + "-"
          + HexFormat.of().formatHex(hash, 0, 4);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Counts the finished requests; writes the manifest once all have finished. */
  private Duration awaitVolumes(Backup backup, BackupStorageLocationRepository bslr) {
    BackupStatus status = backup.getStatus();
    List<PodVolumeBackup> requests = requests(backup);
    int completed = 0;
    int failed = 0;
    for (PodVolumeBackup pvb : requests) {
      String phase = pvb.getStatus() == null ? null : pvb.getStatus().phase;
      if (PodVolumeStatus.COMPLETED.equals(phase)) {
        completed++;
      } else if (PodVolumeStatus.FAILED.equals(phase)) {
        failed++;
      }
    }
    int expected = status.volumes == null ? requests.size() : status.volumes;
    if (completed + failed < expected && requests.size() >= expected) {
      if (!Integer.valueOf(completed).equals(status.volumesCompleted)
          || !Integer.valueOf(failed).equals(status.volumesFailed)) {
        status.volumesCompleted = completed;
        status.volumesFailed = failed;
        status.message =
            "waiting for " + (expected - completed - failed) + " of " + expected + " pod volumes";
        client.resource(backup).updateStatus();
      }
      return settings.recheck();
    }
    status.volumesCompleted = completed;
    status.volumesFailed = expected - completed;
    try (Repository repo = repositories.open(bslr)) {
      return complete(backup, new BackupSnapshots(repo, settings.clock()), requests);
    } catch (IOException | InvalidResourceException | RuntimeException e) {
      note(backup, "volumes done; cannot yet write the manifest: " + e.getMessage());
      return settings.recheck();
    }
  }

  private List<PodVolumeBackup> requests(Backup backup) {
    return client
        .resources(PodVolumeBackup.class)
        .inNamespace(backup.getMetadata().getNamespace())
        .withLabel(SteleApi.BACKUP_UID_LABEL, BackupSnapshots.uid(backup))
        .list()
        .getItems();
  }

  /** Writes the manifest (unless a pass before a restart did) and ends the backup. */
  private Duration complete(
      Backup backup, BackupSnapshots snapshots, List<PodVolumeBackup> requests) {
    BackupStatus status = backup.getStatus();
    BackupSnapshots.Written written;
    try {
      SnapshotCatalog.Entry existing = snapshots.manifestOf(backup);
      if (existing != null) {
        return fromManifest(backup, existing);
      }
      written = snapshots.writeBackup(backup, Id.parse(status.resourcesSnapshotID), requests);
    } catch (IOException | RuntimeException e) {
      LOG.warn("backup {}: manifest not written", backup.getMetadata().getName(), e);
      return fail(
          backup,
          "writing the backup manifest failed, so the backup does not exist: " + e.getMessage(),
          e);
    }
    BackupDocument doc = written.document();
    status.snapshotID = written.entry().id().hex();
    status.manifest = written.entry().name();
    status.items = doc.items();
    status.warnings =
        Math.max(doc.warnings().size(), status.warnings == null ? 0 : status.warnings);
    status.errors = doc.errors().size();
    status.chunksNew = written.entry().manifest().stats().chunksNew();
    String message =
        doc.items()
            + " items"
            + (doc.volumes().isEmpty() ? "" : ", " + doc.volumes().size() + " pod volumes")
            + (doc.errors().isEmpty() ? "" : "; errors: " + String.join("; ", first(doc.errors())))
            + (doc.warnings().isEmpty()
                ? ""
                : "; warnings: " + String.join("; ", first(doc.warnings())));
    return finish(backup, doc.phase(), message);
  }

  private static List<String> first(List<String> all) {
    return all.size() <= 5 ? all : all.subList(0, 5);
  }

  /** An InProgress backup this process is not running: complete it from its manifest, or fail. */
  private Duration recover(Backup backup, BackupStorageLocationRepository bslr) {
    SnapshotCatalog.Entry found;
    try (Repository repo = repositories.open(bslr)) {
      found = new BackupSnapshots(repo, settings.clock()).manifestOf(backup);
    } catch (IOException | InvalidResourceException | RuntimeException e) {
      note(
          backup,
          "left InProgress by an operator that stopped; cannot yet check repository "
              + bslr.getMetadata().getName()
              + " for its manifest: "
              + e.getMessage());
      return settings.recheck();
    }
    return found == null ? finish(backup, FAILED, RESTARTED) : fromManifest(backup, found);
  }

  private Duration fromManifest(Backup backup, SnapshotCatalog.Entry found) {
    BackupStatus status = backup.getStatus();
    Map<String, String> l = found.manifest().labels();
    status.snapshotID = found.id().hex();
    status.manifest = found.name();
    status.items = integer(l.get(SteleApi.BACKUP_ITEMS_LABEL));
    status.warnings = integer(l.get(SteleApi.BACKUP_WARNINGS_LABEL));
    status.errors = integer(l.get(SteleApi.BACKUP_ERRORS_LABEL));
    String phase = l.getOrDefault(SteleApi.BACKUP_PHASE_LABEL, COMPLETED);
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

  /** Says why the backup waits, once. */
  private void note(Backup backup, String why) {
    if (!why.equals(backup.getStatus().message)) {
      backup.getStatus().message = why;
      client.resource(backup).updateStatus();
    }
  }

  /**
   * Fails the backup because of {@code cause} — unless the operator stopping caused it: then the
   * status keeps its phase and the next operator resumes or fails the backup with the real reason.
   */
  private Duration fail(Backup backup, String message, Throwable cause) {
    if (Stopping.explains(cause)) {
      throw new Stopping.Stopped(cause);
    }
    return finish(backup, FAILED, message);
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
}
