package dev.stele.operator.restore;

import static dev.stele.k8s.api.RestoreStatus.COMPLETED;
import static dev.stele.k8s.api.RestoreStatus.FAILED;
import static dev.stele.k8s.api.RestoreStatus.IN_PROGRESS;
import static dev.stele.k8s.api.RestoreStatus.PARTIALLY_FAILED;
import static dev.stele.k8s.api.RestoreStatus.WAITING_FOR_VOLUMES;

import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupStatus;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.PodVolumeRestore;
import dev.stele.k8s.api.PodVolumeStatus;
import dev.stele.k8s.api.Restore;
import dev.stele.k8s.api.RestoreSpec;
import dev.stele.k8s.api.RestoreStatus;
import dev.stele.k8s.api.StelApi;
import dev.stele.operator.Events;
import dev.stele.operator.InvalidResourceException;
import dev.stele.operator.Repositories;
import dev.stele.operator.Settings;
import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import dev.stele.snapshot.SnapshotCatalog;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles a {@link Restore}, as Velero does on a repository that is written once: checks that
 * its Backup is finished, reads the backup's snapshot ({@link BackupContents}), creates the
 * selected objects ({@link ObjectRestorer}), waits while the node agent fills restored pods'
 * volumes, then writes the results once ({@link Results}) and the final phase.
 *
 * <p>Phases: InProgress (one pass: objects are created) → WaitingForVolumes (while any {@link
 * PodVolumeRestore} is neither Completed nor Failed) → Completed, PartiallyFailed (an object or a
 * volume failed) or Failed (nothing could be restored).
 *
 * <p>A pass never ends in InProgress, so a Restore found InProgress was left by a process that
 * stopped during it: it is Failed, as Velero does (unless its results were written, then its status
 * is completed from them). A Restore found WaitingForVolumes resumes waiting: the requests are in
 * the cluster; only the per-object record kept in memory is lost, which its results then say.
 */
@ControllerConfiguration(name = "restore")
public final class RestoreReconciler implements Reconciler<Restore> {
  private static final Logger LOG = LoggerFactory.getLogger(RestoreReconciler.class);

  /** The image of the wait container: the operator's own (deploy/operator.yaml). */
  public static final String IMAGE = "ghcr.io/stele-dev/stele:0.1.0";

  static final String RESTARTED =
      "operator restarted during restore; what it created so far stays in the cluster";

  static final String LOST =
      "the operator restarted while volumes were restored: the per-object record was lost; the"
          + " counts are those of the Restore's status";

  private static final String BY_BACKUP = "by-backup";

  private final KubernetesClient client;
  private final Settings settings;
  private final Events events;
  private final Repositories repositories;
  private final String image;
  private final Map<String, Outcome> waiting = new ConcurrentHashMap<>();

  public RestoreReconciler(KubernetesClient client, Settings settings) {
    this(client, settings, IMAGE);
  }

  RestoreReconciler(KubernetesClient client, Settings settings, String image) {
    this.client = client;
    this.settings = settings;
    this.events = new Events(client, settings.clock());
    this.repositories = new Repositories(client, settings);
    this.image = image;
  }

  @Override
  public UpdateControl<Restore> reconcile(Restore restore, Context<Restore> context) {
    Duration again = reconcile(restore);
    return again == null
        ? UpdateControl.noUpdate()
        : UpdateControl.<Restore>noUpdate().rescheduleAfter(again);
  }

  /**
   * Reconciles a Restore when one of its PodVolumeRestores changes, and a waiting Restore when its
   * Backup does, instead of at the next recheck.
   */
  @Override
  public List<EventSource<?, Restore>> prepareEventSources(EventSourceContext<Restore> context) {
    context
        .getPrimaryCache()
        .addIndexer(
            BY_BACKUP,
            r ->
                r.getSpec() == null || r.getSpec().backupName == null
                    ? List.of()
                    : List.of(r.getMetadata().getNamespace() + "/" + r.getSpec().backupName));
    var volumes =
        InformerEventSourceConfiguration.from(PodVolumeRestore.class, Restore.class)
            .withNamespacesInheritedFromController()
            .withSecondaryToPrimaryMapper(
                (PodVolumeRestore pvr) ->
                    pvr.getSpec() == null || pvr.getSpec().restoreName == null
                        ? Set.of()
                        : Set.of(
                            new ResourceID(
                                pvr.getSpec().restoreName, pvr.getMetadata().getNamespace())))
            .build();
    var backups =
        InformerEventSourceConfiguration.from(Backup.class, Restore.class)
            .withName("restore-backups")
            .withNamespacesInheritedFromController()
            .withSecondaryToPrimaryMapper(
                (Backup b) ->
                    context
                        .getPrimaryCache()
                        .byIndex(
                            BY_BACKUP,
                            b.getMetadata().getNamespace() + "/" + b.getMetadata().getName())
                        .stream()
                        .map(ResourceID::fromResource)
                        .collect(Collectors.toSet()))
            .build();
    return List.of(
        new InformerEventSource<>(volumes, context), new InformerEventSource<>(backups, context));
  }

  /** One pass; returns when to look again, or null when the restore is done. */
  Duration reconcile(Restore cached) {
    // The cache may hold a status older than what this process wrote: read the API server's.
    Restore restore =
        client
            .resources(Restore.class)
            .inNamespace(cached.getMetadata().getNamespace())
            .withName(cached.getMetadata().getName())
            .get();
    if (restore == null) {
      waiting.remove(String.valueOf(cached.getMetadata().getUid()));
      return null;
    }
    if (restore.getStatus() == null) {
      restore.setStatus(new RestoreStatus());
    }
    if (restore.getSpec() == null) {
      restore.setSpec(new RestoreSpec());
    }
    String phase = restore.getStatus().phase;
    if (COMPLETED.equals(phase) || PARTIALLY_FAILED.equals(phase) || FAILED.equals(phase)) {
      return null;
    }
    if (IN_PROGRESS.equals(phase)) {
      return recover(restore);
    }
    if (WAITING_FOR_VOLUMES.equals(phase)) {
      return awaitVolumes(restore);
    }
    return start(restore);
  }

  private Duration start(Restore restore) {
    RestoreSpec spec = restore.getSpec();
    String ns = restore.getMetadata().getNamespace();
    if (spec.backupName == null || spec.backupName.isBlank()) {
      return finish(restore, FAILED, "spec.backupName is required");
    }
    Selection selection;
    try {
      selection = new Selection(spec);
    } catch (IllegalArgumentException e) {
      return finish(restore, FAILED, e.getMessage());
    }
    String policy = spec.existingResourcePolicy == null ? "none" : spec.existingResourcePolicy;
    if (!policy.equals("none") && !policy.equals("update")) {
      return finish(
          restore,
          FAILED,
          "spec.existingResourcePolicy must be none or update, not " + spec.existingResourcePolicy);
    }
    Backup backup = client.resources(Backup.class).inNamespace(ns).withName(spec.backupName).get();
    if (backup == null) {
      return finish(
          restore, FAILED, "backup " + spec.backupName + " does not exist in namespace " + ns);
    }
    BackupStatus bs = backup.getStatus() == null ? new BackupStatus() : backup.getStatus();
    if (BackupStatus.FAILED.equals(bs.phase)) {
      return finish(
          restore, FAILED, "backup " + spec.backupName + " failed: there is nothing to restore");
    }
    if (!BackupStatus.COMPLETED.equals(bs.phase)
        && !BackupStatus.PARTIALLY_FAILED.equals(bs.phase)) {
      return wait(
          restore,
          "waiting for backup "
              + spec.backupName
              + " to finish (phase "
              + (bs.phase == null ? "not started" : bs.phase)
              + ")");
    }
    if (bs.snapshotID == null || bs.repository == null) {
      return finish(
          restore,
          FAILED,
          "backup "
              + spec.backupName
              + " is "
              + bs.phase
              + " but names no snapshot and repository");
    }
    Id snapshot;
    BackupStorageLocationRepository bslr;
    try {
      snapshot = Id.parse(bs.snapshotID);
      bslr = repositories.named(ns, bs.repository);
    } catch (IllegalArgumentException | InvalidResourceException e) {
      return finish(restore, FAILED, "backup " + spec.backupName + ": " + e.getMessage());
    }
    String notReady = Repositories.notReady(bslr);
    if (notReady != null) {
      return wait(restore, notReady);
    }
    Instant started = settings.clock().instant();
    RestoreStatus status = restore.getStatus();
    status.phase = IN_PROGRESS;
    status.startTimestamp = started.toString();
    status.message = "restoring from backup " + spec.backupName;
    restore = client.resource(restore).updateStatus();
    Outcome outcome =
        new Outcome(
            spec.backupName,
            bs.snapshotID,
            bs.repository,
            instant(bs.expiration),
            started.toString(),
            settings.clock());
    try (Repository repo = repositories.open(bslr)) {
      BackupContents contents = BackupContents.read(repo, snapshot);
      new ObjectRestorer(client, restore, image, outcome)
          .run(
              contents, selection, policy.equals("update"), !Boolean.FALSE.equals(spec.restorePVs));
      counts(restore.getStatus(), outcome);
      if (!outcome.volumes.isEmpty()) {
        waiting.put(restore.getMetadata().getUid(), outcome);
        status = restore.getStatus();
        status.phase = WAITING_FOR_VOLUMES;
        status.volumes = outcome.volumes.size();
        status.volumesCompleted = 0;
        status.volumesFailed = 0;
        status.message = waitingMessage(status);
        restore = client.resource(restore).updateStatus();
        events.record(restore, Events.NORMAL, WAITING_FOR_VOLUMES, status.message);
        return settings.recheck();
      }
      return end(restore, outcome, repo, List.of());
    } catch (IOException | InvalidResourceException | RuntimeException e) {
      LOG.warn("restore {} failed", restore.getMetadata().getName(), e);
      return finish(
          restore,
          FAILED,
          "reading backup "
              + spec.backupName
              + " from repository "
              + bs.repository
              + ": "
              + e.getMessage());
    }
  }

  /** WaitingForVolumes: ends once every PodVolumeRestore is Completed or Failed. */
  private Duration awaitVolumes(Restore restore) {
    RestoreStatus status = restore.getStatus();
    String uid = restore.getMetadata().getUid();
    List<PodVolumeRestore> requests =
        client
            .resources(PodVolumeRestore.class)
            .inNamespace(restore.getMetadata().getNamespace())
            .withLabel(StelApi.RESTORE_UID_LABEL, uid)
            .list()
            .getItems();
    Outcome outcome = waiting.get(uid);
    if (outcome == null) {
      outcome = lost(restore, requests);
      waiting.put(uid, outcome);
    }
    int expected = status.volumes == null ? requests.size() : status.volumes;
    List<RestoreDocument.Volume> volumes = new ArrayList<>();
    int completed = 0;
    int failed = 0;
    for (PodVolumeRestore pvr : requests) {
      PodVolumeStatus s = pvr.getStatus() == null ? new PodVolumeStatus() : pvr.getStatus();
      if (PodVolumeStatus.COMPLETED.equals(s.phase)) {
        completed++;
      } else if (PodVolumeStatus.FAILED.equals(s.phase)) {
        failed++;
      }
      volumes.add(
          new RestoreDocument.Volume(
              pvr.getSpec().pod.namespace,
              pvr.getSpec().pod.name,
              pvr.getSpec().volume,
              pvr.getSpec().snapshotID,
              pvr.getMetadata().getName(),
              s.phase,
              s.message));
    }
    // A request deleted before it ended will never end: it counts as failed.
    Set<String> listed =
        requests.stream().map(r -> r.getMetadata().getName()).collect(Collectors.toSet());
    int deleted = 0;
    for (Outcome.Requested r : outcome.volumes) {
      if (!listed.contains(r.name())) {
        deleted++;
        volumes.add(
            new RestoreDocument.Volume(
                r.namespace(),
                r.pod(),
                r.volume(),
                r.snapshotID(),
                r.name(),
                PodVolumeStatus.FAILED,
                "the PodVolumeRestore was deleted before it ended"));
      }
    }
    // After a restart, deleted requests are not known by name, only by the count in the status.
    failed += deleted + Math.max(0, expected - requests.size() - deleted);
    status.volumesCompleted = completed;
    status.volumesFailed = failed;
    if (completed + failed < expected) {
      String message = waitingMessage(status);
      if (!message.equals(status.message)) {
        status.message = message;
        client.resource(restore).updateStatus();
      }
      return settings.recheck();
    }
    BackupStorageLocationRepository bslr;
    try {
      bslr = repositories.named(restore.getMetadata().getNamespace(), outcome.repository);
    } catch (InvalidResourceException e) {
      return end(restore, outcome, null, volumes, e.getMessage());
    }
    try (Repository repo = repositories.open(bslr)) {
      return end(restore, outcome, repo, volumes);
    } catch (IOException | InvalidResourceException | RuntimeException e) {
      return end(restore, outcome, null, volumes, e.getMessage());
    }
  }

  /** What a new process knows of a restore it finds waiting: the status and the requests. */
  private Outcome lost(Restore restore, List<PodVolumeRestore> requests) {
    String repository = requests.isEmpty() ? null : requests.get(0).getSpec().repository;
    RestoreStatus status = restore.getStatus();
    Backup backup =
        client
            .resources(Backup.class)
            .inNamespace(restore.getMetadata().getNamespace())
            .withName(restore.getSpec().backupName)
            .get();
    BackupStatus bs = backup == null || backup.getStatus() == null ? null : backup.getStatus();
    if (repository == null && bs != null) {
      repository = bs.repository;
    }
    Outcome outcome =
        new Outcome(
            restore.getSpec().backupName,
            bs == null ? null : bs.snapshotID,
            repository,
            bs == null ? null : instant(bs.expiration),
            status.startTimestamp,
            settings.clock());
    outcome.restored = status.itemsRestored == null ? 0 : status.itemsRestored;
    outcome.skipped = status.itemsSkipped == null ? 0 : status.itemsSkipped;
    outcome.note = LOST;
    outcome.log("resumed waiting for volumes after the operator restarted");
    for (PodVolumeRestore r : requests) {
      outcome.volumes.add(
          new Outcome.Requested(
              r.getSpec().pod.namespace,
              r.getSpec().pod.name,
              r.getSpec().volume,
              r.getSpec().snapshotID,
              r.getMetadata().getName()));
    }
    return outcome;
  }

  private Duration end(
      Restore restore, Outcome outcome, Repository repo, List<RestoreDocument.Volume> volumes) {
    return end(restore, outcome, repo, volumes, null);
  }

  /**
   * Writes the results (unless a results snapshot with this restore's uid exists, or {@code repo}
   * is null because it could not be opened: {@code unreachable} says why) and the final phase.
   */
  private Duration end(
      Restore restore,
      Outcome outcome,
      Repository repo,
      List<RestoreDocument.Volume> volumes,
      String unreachable) {
    RestoreStatus status = restore.getStatus();
    int volumesFailed = status.volumesFailed == null ? 0 : status.volumesFailed;
    boolean lostErrors = outcome.note != null && status.errors != null && status.errors > 0;
    String phase =
        outcome.errors.isEmpty() && volumesFailed == 0 && !lostErrors
            ? COMPLETED
            : PARTIALLY_FAILED;
    Instant now = settings.clock().instant();
    outcome.log("restore " + phase);
    var document =
        new RestoreDocument(
            RestoreDocument.VERSION,
            restore.getMetadata().getName(),
            restore.getMetadata().getNamespace(),
            restore.getMetadata().getUid(),
            outcome.backupName,
            outcome.backupSnapshot,
            restore.getSpec(),
            phase,
            outcome.started,
            now.toString(),
            outcome.restored,
            outcome.skipped,
            outcome.warnings,
            outcome.errors,
            outcome.objects,
            volumes,
            outcome.note);
    String notStored = unreachable;
    if (repo != null) {
      try {
        SnapshotCatalog.Entry found = Results.find(repo, restore.getMetadata().getUid());
        Id id =
            found != null
                ? found.id()
                : Results.write(repo, restore, document, outcome.log, outcome.expires);
        status.resultsSnapshotID = id.hex();
      } catch (IOException | RuntimeException e) {
        LOG.warn("restore {}: results not stored", restore.getMetadata().getName(), e);
        notStored = e.getMessage();
      }
    }
    if (outcome.note == null) {
      counts(status, outcome);
    }
    StringBuilder message =
        new StringBuilder()
            .append(outcome.restored)
            .append(" restored, ")
            .append(outcome.skipped)
            .append(" skipped");
    if (status.volumes != null) {
      message
          .append(", volumes ")
          .append(status.volumesCompleted)
          .append(" of ")
          .append(status.volumes)
          .append(" restored");
    }
    if (!outcome.errors.isEmpty()) {
      message.append("; errors: ").append(String.join("; ", Outcome.first(outcome.errors)));
    }
    if (!outcome.warnings.isEmpty()) {
      message.append("; warnings: ").append(String.join("; ", Outcome.first(outcome.warnings)));
    }
    if (notStored != null) {
      status.warnings = (status.warnings == null ? 0 : status.warnings) + 1;
      message
          .append("; warning: the results were not stored in the repository: ")
          .append(notStored);
      events.record(restore, Events.WARNING, "ResultsNotStored", notStored);
    }
    waiting.remove(restore.getMetadata().getUid());
    return finish(restore, phase, message.toString());
  }

  /** A Restore left InProgress: completed from its results if they were written, else Failed. */
  private Duration recover(Restore restore) {
    String ns = restore.getMetadata().getNamespace();
    Backup backup =
        client.resources(Backup.class).inNamespace(ns).withName(restore.getSpec().backupName).get();
    if (backup == null || backup.getStatus() == null || backup.getStatus().repository == null) {
      return finish(restore, FAILED, RESTARTED);
    }
    SnapshotCatalog.Entry found;
    RestoreDocument document;
    try (Repository repo =
        repositories.open(repositories.named(ns, backup.getStatus().repository))) {
      found = Results.find(repo, restore.getMetadata().getUid());
      document = found == null ? null : Results.read(repo, found.manifest());
    } catch (IOException | InvalidResourceException | RuntimeException e) {
      return wait(
          restore,
          "left InProgress by an operator that stopped; cannot yet look for its results in"
              + " repository "
              + backup.getStatus().repository
              + ": "
              + e.getMessage());
    }
    if (found == null) {
      return finish(restore, FAILED, RESTARTED);
    }
    RestoreStatus status = restore.getStatus();
    status.resultsSnapshotID = found.id().hex();
    status.itemsRestored = document.itemsRestored();
    status.itemsSkipped = document.itemsSkipped();
    status.warnings = document.warnings().size();
    status.errors = document.errors().size();
    return finish(
        restore,
        document.phase(),
        "completed from its results after the operator restarted (snapshot "
            + found.id().hex()
            + ")");
  }

  private static void counts(RestoreStatus status, Outcome outcome) {
    status.itemsRestored = outcome.restored;
    status.itemsSkipped = outcome.skipped;
    status.warnings = outcome.warnings.size();
    status.errors = outcome.errors.size();
  }

  private static String waitingMessage(RestoreStatus status) {
    int done = status.volumesCompleted + status.volumesFailed;
    return "waiting for the node agent to fill "
        + (status.volumes - done)
        + " of "
        + status.volumes
        + " pod volumes";
  }

  /** Not started yet: says why in the message, and looks again later. */
  private Duration wait(Restore restore, String why) {
    if (!why.equals(restore.getStatus().message)) {
      restore.getStatus().message = why;
      client.resource(restore).updateStatus();
    }
    return settings.recheck();
  }

  private Duration finish(Restore restore, String phase, String message) {
    RestoreStatus status = restore.getStatus();
    status.phase = phase;
    status.message = message;
    status.completionTimestamp = settings.clock().instant().toString();
    client.resource(restore).updateStatus();
    events.record(restore, FAILED.equals(phase) ? Events.WARNING : Events.NORMAL, phase, message);
    return null;
  }

  private static Instant instant(String iso) {
    try {
      return iso == null ? null : Instant.parse(iso);
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
