package dev.stele.operator.restore;

import dev.stele.k8s.api.BackupStatus;
import dev.stele.k8s.api.PodVolumeRestore;
import dev.stele.k8s.api.Restore;
import dev.stele.k8s.api.RestoreStatus;
import dev.stele.k8s.api.RunPhase;
import dev.stele.operator.kube.Times;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What a restore has done so far, written once, as {@code restore.json} and {@code restore.log}, at
 * the end. While the node agent fills volumes it is kept in the Restore's status ({@link
 * ProgressRecord}), so any process can end the restore. A Restore left waiting by an operator that
 * kept it in memory instead (before {@code status.progress}) has lost it: the record then says so
 * ({@link #note}) and keeps the counts the Restore's status holds.
 *
 * <p>Concurrency: used by one reconciler thread during one pass.
 */
final class Outcome {
  /** The note of a record lost with the memory of an operator that kept it there. */
  static final String LOST =
      "the operator restarted while volumes were restored: the per-object record was lost; the"
          + " counts are those of the Restore's status";

  /** A volume the node agent was asked to fill. */
  record Requested(String namespace, String pod, String volume, String snapshotID, String name) {}

  /**
   * A restored pod whose post-restore exec hooks are to run ({@link PostRestoreHooks}); {@code
   * started} once they began.
   */
  record HookPod(String namespace, String pod, String backedUpIn, boolean started) {}

  final String backupName;
  final String backupSnapshot;
  final String repository;
  final Instant expires;
  final String started;
  final List<RestoreDocument.Item> objects = new ArrayList<>();
  final List<Requested> volumes = new ArrayList<>();
  final List<HookPod> hookPods = new ArrayList<>();
  final List<String> warnings = new ArrayList<>();
  final List<String> errors = new ArrayList<>();
  final List<String> log = new ArrayList<>();
  int restored;
  int skipped;
  String note;
  private final Clock clock;

  Outcome(
      String backupName,
      String backupSnapshot,
      String repository,
      Instant expires,
      String started,
      Clock clock) {
    this.backupName = backupName;
    this.backupSnapshot = backupSnapshot;
    this.repository = repository;
    this.expires = expires;
    this.started = started;
    this.clock = clock;
  }

  void log(String line) {
    log.add(clock.instant() + " " + line);
  }

  void warn(String warning) {
    warnings.add(warning);
    log("warning: " + warning);
  }

  void error(String error) {
    errors.add(error);
    log("error: " + error);
  }

  void item(BackedUpObject o, String restoredAs, String result, String message) {
    objects.add(
        new RestoreDocument.Item(
            o.qualifiedResource(), o.namespace(), o.name(), restoredAs, result, message));
    log(
        result
            + " "
            + o.describe()
            + (restoredAs == null ? "" : " as " + restoredAs)
            + (message == null ? "" : ": " + message));
  }

  /**
   * What a process that finds a restore waiting for volumes without {@code status.progress} knows
   * of it: the Restore's status, its requests, and its Backup (null if it is gone).
   */
  static Outcome resumed(
      Restore restore, List<PodVolumeRestore> requests, BackupStatus backup, Clock clock) {
    RestoreStatus status = restore.getStatus();
    String repository = requests.isEmpty() ? null : requests.get(0).getSpec().repository;
    if (repository == null && backup != null) {
      repository = backup.repository;
    }
    Outcome outcome =
        new Outcome(
            restore.getSpec().backupName,
            backup == null ? null : backup.snapshotID,
            repository,
            backup == null ? null : Times.parse(backup.expiration),
            status.startTimestamp,
            clock);
    outcome.restored = status.itemsRestored == null ? 0 : status.itemsRestored;
    outcome.skipped = status.itemsSkipped == null ? 0 : status.itemsSkipped;
    outcome.note = LOST;
    outcome.log("resumed waiting for volumes after the operator restarted");
    for (PodVolumeRestore r : requests) {
      var spec = r.getSpec();
      outcome.volumes.add(
          new Requested(
              spec.pod.namespace,
              spec.pod.name,
              spec.volume,
              spec.snapshotID,
              r.getMetadata().getName()));
    }
    return outcome;
  }

  /** Puts the counts into the Restore's status. */
  void countInto(RestoreStatus status) {
    status.itemsRestored = restored;
    status.itemsSkipped = skipped;
    status.warnings = warnings.size();
    status.errors = errors.size();
  }

  /** {@code restore.json}. */
  RestoreDocument document(
      Restore restore, RunPhase phase, Instant completed, List<RestoreDocument.Volume> volumes) {
    var meta = restore.getMetadata();
    return new RestoreDocument(
        RestoreDocument.VERSION,
        meta.getName(),
        meta.getNamespace(),
        meta.getUid(),
        backupName,
        backupSnapshot,
        restore.getSpec(),
        phase.value(),
        started,
        completed.toString(),
        restored,
        skipped,
        warnings,
        errors,
        objects,
        volumes,
        note);
  }

  /** The final status message: counts, then the first five errors and warnings. */
  String summary(RestoreStatus status) {
    StringBuilder message =
        new StringBuilder()
            .append(restored)
            .append(" restored, ")
            .append(skipped)
            .append(" skipped");
    if (status.volumes != null) {
      message
          .append(", volumes ")
          .append(status.volumesCompleted)
          .append(" of ")
          .append(status.volumes)
          .append(" restored");
    }
    if (!errors.isEmpty()) {
      message.append("; errors: ").append(String.join("; ", first(errors)));
    }
    if (!warnings.isEmpty()) {
      message.append("; warnings: ").append(String.join("; ", first(warnings)));
    }
    return message.toString();
  }

  private static List<String> first(List<String> all) {
    return all.size() <= 5 ? all : all.subList(0, 5);
  }
}
