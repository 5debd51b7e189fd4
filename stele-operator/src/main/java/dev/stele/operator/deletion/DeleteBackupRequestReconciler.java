package dev.stele.operator.deletion;

import static dev.stele.k8s.api.DeleteBackupRequestStatus.IN_PROGRESS;
import static dev.stele.k8s.api.DeleteBackupRequestStatus.PROCESSED;

import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupStatus;
import dev.stele.k8s.api.BackupStorageLocation;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.DeleteBackupRequest;
import dev.stele.k8s.api.DeleteBackupRequestStatus;
import dev.stele.k8s.api.PodVolumeBackup;
import dev.stele.k8s.api.SteleApi;
import dev.stele.operator.kube.Events;
import dev.stele.operator.kube.InvalidResourceException;
import dev.stele.operator.kube.Settings;
import dev.stele.operator.kube.Times;
import dev.stele.operator.repository.Repositories;
import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles a {@link DeleteBackupRequest}: forgets every snapshot of the Backup it names (its
 * manifest and its parts) by writing tombstones — new objects; nothing stored is deleted or
 * rewritten — then removes the Backup's PodVolumeBackups and the Backup. The status says until when
 * storage keeps the data; maintenance reclaims what no other backup uses after that.
 *
 * <p>The tombstones are recorded in the status before the Backup is removed, so a pass that finds
 * the Backup gone and tombstones recorded finishes the request; one that finds the snapshots
 * already forgotten reuses their tombstones. A Backup still running is waited for; a ReadOnly
 * location is an error retried later, since the location may be made writable.
 */
@ControllerConfiguration(name = "delete-backup-request")
public final class DeleteBackupRequestReconciler implements Reconciler<DeleteBackupRequest> {
  private static final Logger LOG = LoggerFactory.getLogger(DeleteBackupRequestReconciler.class);

  private final KubernetesClient client;
  private final Settings settings;
  private final Events events;
  private final Repositories repositories;

  public DeleteBackupRequestReconciler(KubernetesClient client, Settings settings) {
    this.client = client;
    this.settings = settings;
    this.events = new Events(client, settings.clock());
    this.repositories = new Repositories(client, settings);
  }

  @Override
  public UpdateControl<DeleteBackupRequest> reconcile(
      DeleteBackupRequest request, Context<DeleteBackupRequest> context) {
    Duration again = reconcile(request);
    return again == null
        ? UpdateControl.noUpdate()
        : UpdateControl.<DeleteBackupRequest>noUpdate().rescheduleAfter(again);
  }

  /** One pass; returns when to look again, or null when the request is processed. */
  public Duration reconcile(DeleteBackupRequest cached) {
    String ns = cached.getMetadata().getNamespace();
    DeleteBackupRequest request =
        client
            .resources(DeleteBackupRequest.class)
            .inNamespace(ns)
            .withName(cached.getMetadata().getName())
            .get();
    if (request == null) {
      return null;
    }
    DeleteBackupRequestStatus status =
        request.getStatus() == null ? new DeleteBackupRequestStatus() : request.getStatus();
    request.setStatus(status);
    if (PROCESSED.equals(status.phase)) {
      return null;
    }
    String name = request.getSpec() == null ? null : request.getSpec().backupName;
    if (name == null || name.isBlank()) {
      return processed(request, null, "spec.backupName is empty: name the Backup to delete", true);
    }
    Backup backup = client.resources(Backup.class).inNamespace(ns).withName(name).get();
    if (backup == null) {
      if (status.tombstones != null && !status.tombstones.isEmpty()) {
        // A pass that recorded the tombstones stopped before it finished.
        deletePodVolumeBackups(ns, name);
        return processed(request, null, status.message, false);
      }
      return processed(request, null, "Backup " + name + " does not exist in " + ns, true);
    }
    BackupStatus bs = backup.getStatus() == null ? new BackupStatus() : backup.getStatus();
    if (!finished(bs.phase)) {
      return waiting(
          request,
          "waiting for Backup "
              + name
              + " to finish ("
              + (bs.phase == null ? "not started" : bs.phase)
              + ")");
    }
    if (bs.repository == null) {
      // Failed before it reached a repository: nothing was written.
      return finish(request, backup, List.of(), null, "nothing was written to a repository");
    }
    BackupStorageLocationRepository bslr;
    try {
      bslr = repositories.named(ns, bs.repository);
    } catch (InvalidResourceException e) {
      return processed(
          request, null, "cannot forget the snapshots of " + name + ": " + e.getMessage(), true);
    }
    String notReady = Repositories.notReady(bslr);
    if (notReady != null) {
      return waiting(request, notReady);
    }
    BackupStorageLocation bsl = repositories.location(bslr);
    if (bsl != null && "ReadOnly".equals(bsl.getSpec().accessMode)) {
      return error(
          request,
          "BackupStorageLocation "
              + bsl.getMetadata().getName()
              + " is ReadOnly: no tombstone can be written; retrying every "
              + settings.recheck().toSeconds()
              + "s");
    }
    List<String> tombstones;
    Instant retainedUntil;
    int snapshots;
    try (Repository repo = repositories.open(bslr)) {
      String manifest = bs.snapshotID;
      if (manifest == null && backup.getMetadata().getAnnotations() != null) {
        manifest = backup.getMetadata().getAnnotations().get(SteleApi.SYNCED_FROM_ANNOTATION);
      }
      BackupTombstones found =
          BackupTombstones.find(
              repo, manifest == null ? null : Id.parse(manifest), backup.getMetadata().getUid());
      snapshots = found.size();
      tombstones =
          found.forget(
              "Backup "
                  + ns
                  + "/"
                  + name
                  + " deleted by DeleteBackupRequest "
                  + request.getMetadata().getName());
      retainedUntil = found.isEmpty() ? null : found.retainedUntil(Times.parse(bs.expiration));
    } catch (IOException | InvalidResourceException | RuntimeException e) {
      LOG.warn("deleting backup {}: {}", name, e.toString());
      return error(request, "repository " + bs.repository + ": " + e.getMessage());
    }
    String message =
        snapshots == 0
            ? "no snapshot of the backup was found in repository " + bs.repository
            : tombstones.size()
                + " tombstones written for "
                + snapshots
                + " snapshots in repository "
                + bs.repository
                + "; storage retains the data until "
                + retainedUntil
                + ", after which maintenance reclaims what no other backup uses";
    return finish(request, backup, tombstones, retainedUntil, message);
  }

  /** Whether a Backup in {@code phase} has run to its end. */
  static boolean finished(String phase) {
    return BackupStatus.COMPLETED.equals(phase)
        || BackupStatus.PARTIALLY_FAILED.equals(phase)
        || BackupStatus.FAILED.equals(phase);
  }

  /** Records what was forgotten, then removes the Backup and its PodVolumeBackups. */
  private Duration finish(
      DeleteBackupRequest request,
      Backup backup,
      List<String> tombstones,
      Instant retainedUntil,
      String message) {
    DeleteBackupRequestStatus status = request.getStatus();
    status.phase = IN_PROGRESS;
    status.tombstones = List.copyOf(tombstones);
    status.retainedUntil = retainedUntil == null ? null : retainedUntil.toString();
    status.message = message;
    status.errors = null;
    request = client.resource(request).updateStatus();
    String ns = backup.getMetadata().getNamespace();
    deletePodVolumeBackups(ns, backup.getMetadata().getName());
    client.resource(backup).delete();
    return processed(request, retainedUntil, message, false);
  }

  private void deletePodVolumeBackups(String ns, String backup) {
    for (PodVolumeBackup pvb :
        client.resources(PodVolumeBackup.class).inNamespace(ns).list().getItems()) {
      if (pvb.getSpec() != null && backup.equals(pvb.getSpec().backupName)) {
        client.resource(pvb).delete();
      }
    }
  }

  /** The request is done: the Backup is gone, or could never be deleted ({@code failed}). */
  private Duration processed(
      DeleteBackupRequest request, Instant retainedUntil, String message, boolean failed) {
    DeleteBackupRequestStatus status = request.getStatus();
    status.phase = PROCESSED;
    status.message = message;
    if (failed) {
      status.errors = List.of(message);
    } else if (retainedUntil != null) {
      status.retainedUntil = retainedUntil.toString();
    }
    client.resource(request).updateStatus();
    events.record(
        request,
        failed ? Events.WARNING : Events.NORMAL,
        failed ? "DeletionFailed" : "BackupDeleted",
        message);
    return null;
  }

  private Duration waiting(DeleteBackupRequest request, String message) {
    DeleteBackupRequestStatus status = request.getStatus();
    if (!IN_PROGRESS.equals(status.phase) || !message.equals(status.message)) {
      status.phase = IN_PROGRESS;
      status.message = message;
      status.errors = null;
      client.resource(request).updateStatus();
      events.record(request, Events.NORMAL, "Waiting", message);
    }
    return settings.recheck();
  }

  private Duration error(DeleteBackupRequest request, String message) {
    DeleteBackupRequestStatus status = request.getStatus();
    if (!IN_PROGRESS.equals(status.phase) || !Objects.equals(status.errors, List.of(message))) {
      status.phase = IN_PROGRESS;
      status.message = message;
      status.errors = List.of(message);
      client.resource(request).updateStatus();
      events.record(request, Events.WARNING, "DeletionFailed", message);
    }
    return settings.recheck();
  }
}
