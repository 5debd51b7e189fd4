package dev.stele.operator.deletion;

import static dev.stele.k8s.api.DeletionPhase.IN_PROGRESS;
import static dev.stele.k8s.api.DeletionPhase.PROCESSED;

import dev.stele.k8s.api.AccessMode;
import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupStatus;
import dev.stele.k8s.api.BackupStorageLocation;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.DeleteBackupRequest;
import dev.stele.k8s.api.DeleteBackupRequestStatus;
import dev.stele.k8s.api.DeletionPhase;
import dev.stele.k8s.api.InvalidResourceException;
import dev.stele.operator.backup.BackupRemoval;
import dev.stele.operator.kube.Events;
import dev.stele.operator.kube.Pass;
import dev.stele.operator.kube.PhasedReconciler;
import dev.stele.operator.kube.Settings;
import dev.stele.operator.repository.Repositories;
import dev.stele.repo.Repository;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
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
 * <ol>
 *   <li><b>New</b> or <b>InProgress</b>: waits while the Backup runs or its repository is not
 *       Ready; a ReadOnly location is an error retried later, since the location may be made
 *       writable. Then the snapshots are forgotten ({@link Forgetting}) and the tombstones recorded
 *       in the status, before the Backup is removed.
 *   <li><b>Processed</b>: the Backup is gone (or could never be deleted, with the reason).
 * </ol>
 *
 * <p>A pass that finds the Backup gone and tombstones recorded finishes the request; one that finds
 * the snapshots already forgotten reuses their tombstones.
 */
@ControllerConfiguration(name = "delete-backup-request")
public final class DeleteBackupRequestReconciler
    extends PhasedReconciler<DeleteBackupRequest, DeleteBackupRequestStatus, DeletionPhase> {
  private static final Logger LOG = LoggerFactory.getLogger(DeleteBackupRequestReconciler.class);

  private final Settings settings;
  private final Repositories repositories;

  public DeleteBackupRequestReconciler(KubernetesClient client, Settings settings) {
    super(client, new Events(client, settings.clock()), DeleteBackupRequestStatus::new);
    this.settings = settings;
    this.repositories = new Repositories(client, settings);
  }

  @Override
  protected Duration advance(
      Pass<DeleteBackupRequest, DeleteBackupRequestStatus> pass, DeletionPhase phase) {
    DeleteBackupRequest request = pass.resource();
    String ns = request.getMetadata().getNamespace();
    String name = request.getSpec() == null ? null : request.getSpec().backupName;
    if (name == null || name.isBlank()) {
      return failed(pass, "spec.backupName is empty: name the Backup to delete");
    }
    Backup backup = client.resources(Backup.class).inNamespace(ns).withName(name).get();
    if (backup == null) {
      if (pass.status().tombstones != null && !pass.status().tombstones.isEmpty()) {
        // A pass that recorded the tombstones stopped before it finished.
        BackupRemoval.removePodVolumeBackups(client, ns, name);
        return processed(pass, null, pass.status().message);
      }
      return failed(pass, "Backup " + name + " does not exist in " + ns);
    }
    if (backup.getStatus() == null) {
      backup.setStatus(new BackupStatus());
    }
    BackupStatus bs = backup.getStatus();
    if (bs.phase == null || !bs.phase.isFinal()) {
      return waiting(
          pass,
          "waiting for Backup "
              + name
              + " to finish ("
              + (bs.phase == null ? "not started" : bs.phase)
              + ")");
    }
    if (bs.repository == null) {
      // Failed before it reached a repository: nothing was written.
      return remove(
          pass, backup, new Forgetting(List.of(), 0, null), "nothing was written to a repository");
    }
    BackupStorageLocationRepository bslr;
    try {
      bslr = repositories.named(ns, bs.repository);
    } catch (InvalidResourceException e) {
      return failed(pass, "cannot forget the snapshots of " + name + ": " + e.getMessage());
    }
    String notReady = Repositories.notReady(bslr);
    if (notReady != null) {
      return waiting(pass, notReady);
    }
    BackupStorageLocation bsl = repositories.location(bslr);
    if (bsl != null && bsl.getSpec().access() == AccessMode.READ_ONLY) {
      return error(
          pass,
          "BackupStorageLocation "
              + bsl.getMetadata().getName()
              + " is ReadOnly: no tombstone can be written; retrying every "
              + settings.recheck().toSeconds()
              + "s");
    }
    Forgetting forgotten;
    try (Repository repo = repositories.open(bslr)) {
      String reason =
          "Backup "
              + ns
              + "/"
              + name
              + " deleted by DeleteBackupRequest "
              + request.getMetadata().getName();
      forgotten = Forgetting.of(repo, backup, reason);
    } catch (IOException | InvalidResourceException | RuntimeException e) {
      LOG.warn("deleting backup {}: {}", name, e.toString());
      return error(pass, "repository " + bs.repository + ": " + e.getMessage());
    }
    return remove(pass, backup, forgotten, forgotten.message(bs.repository));
  }

  /** Records what was forgotten, then removes the Backup and its PodVolumeBackups. */
  private Duration remove(
      Pass<DeleteBackupRequest, DeleteBackupRequestStatus> pass,
      Backup backup,
      Forgetting forgotten,
      String message) {
    DeleteBackupRequestStatus status = pass.status();
    Instant until = forgotten.retainedUntil();
    status.phase = IN_PROGRESS;
    status.tombstones = List.copyOf(forgotten.tombstones());
    status.retainedUntil = until == null ? null : until.toString();
    status.message = message;
    status.errors = null;
    pass.write();
    BackupRemoval.remove(client, backup);
    return processed(pass, until, message);
  }

  /** Processed: the Backup is gone. */
  private Duration processed(
      Pass<DeleteBackupRequest, DeleteBackupRequestStatus> pass,
      Instant retainedUntil,
      String message) {
    DeleteBackupRequestStatus status = pass.status();
    status.phase = PROCESSED;
    status.message = message;
    if (retainedUntil != null) {
      status.retainedUntil = retainedUntil.toString();
    }
    pass.write(Events.NORMAL, "BackupDeleted", message);
    return null;
  }

  /** Processed: the Backup can never be deleted by this request. */
  private Duration failed(
      Pass<DeleteBackupRequest, DeleteBackupRequestStatus> pass, String message) {
    DeleteBackupRequestStatus status = pass.status();
    status.phase = PROCESSED;
    status.message = message;
    status.errors = List.of(message);
    pass.write(Events.WARNING, "DeletionFailed", message);
    return null;
  }

  /** InProgress, waiting: says for what, once. */
  private Duration waiting(
      Pass<DeleteBackupRequest, DeleteBackupRequestStatus> pass, String message) {
    DeleteBackupRequestStatus status = pass.status();
    if (status.phase != IN_PROGRESS || !message.equals(status.message)) {
      status.phase = IN_PROGRESS;
      status.message = message;
      status.errors = null;
      pass.write(Events.NORMAL, "Waiting", message);
    }
    return settings.recheck();
  }

  /** InProgress, after an error to retry: says which, once. */
  private Duration error(
      Pass<DeleteBackupRequest, DeleteBackupRequestStatus> pass, String message) {
    DeleteBackupRequestStatus status = pass.status();
    if (status.phase != IN_PROGRESS || !Objects.equals(status.errors, List.of(message))) {
      status.phase = IN_PROGRESS;
      status.message = message;
      status.errors = List.of(message);
      pass.write(Events.WARNING, "DeletionFailed", message);
    }
    return settings.recheck();
  }
}
