package dev.stele.operator.restore;

import static dev.stele.k8s.api.RunPhase.COMPLETED;
import static dev.stele.k8s.api.RunPhase.FAILED;
import static dev.stele.k8s.api.RunPhase.IN_PROGRESS;
import static dev.stele.k8s.api.RunPhase.PARTIALLY_FAILED;
import static dev.stele.k8s.api.RunPhase.WAITING_FOR_VOLUMES;

import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupStatus;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.PodVolumeRestore;
import dev.stele.k8s.api.Restore;
import dev.stele.k8s.api.RestoreSpec;
import dev.stele.k8s.api.RestoreStatus;
import dev.stele.k8s.api.RunPhase;
import dev.stele.k8s.api.SteleApi;
import dev.stele.operator.kube.Events;
import dev.stele.operator.kube.InvalidResourceException;
import dev.stele.operator.kube.Settings;
import dev.stele.operator.kube.Times;
import dev.stele.operator.repository.Repositories;
import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import dev.stele.snapshot.SnapshotCatalog;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
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
 * the cluster, what the results need is in {@code status.progress} ({@link ProgressRecord}).
 *
 * <p>One class for the three phases so that each decision about a Restore's phase is made in one
 * place; what is done in each phase lives in the classes named above.
 */
@ControllerConfiguration(name = "restore")
public final class RestoreReconciler implements Reconciler<Restore> {
  private static final Logger LOG = LoggerFactory.getLogger(RestoreReconciler.class);

  static final String RESTARTED =
      "operator restarted during restore; what it created so far stays in the cluster";

  private final KubernetesClient client;
  private final Settings settings;
  private final Events events;
  private final Repositories repositories;
  private final String image;

  public RestoreReconciler(KubernetesClient client, Settings settings) {
    this.client = client;
    this.settings = settings;
    this.events = new Events(client, settings.clock());
    this.repositories = new Repositories(client, settings);
    this.image = settings.image();
  }

  @Override
  public UpdateControl<Restore> reconcile(Restore restore, Context<Restore> context) {
    Duration again = reconcile(restore);
    return again == null
        ? UpdateControl.noUpdate()
        : UpdateControl.<Restore>noUpdate().rescheduleAfter(again);
  }

  @Override
  public List<EventSource<?, Restore>> prepareEventSources(EventSourceContext<Restore> context) {
    return RestoreTriggers.sources(context);
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
      return null;
    }
    if (restore.getStatus() == null) {
      restore.setStatus(new RestoreStatus());
    }
    if (restore.getSpec() == null) {
      restore.setSpec(new RestoreSpec());
    }
    RunPhase phase = restore.getStatus().phase;
    if (phase != null && phase.isFinal()) {
      return null;
    }
    if (phase == IN_PROGRESS) {
      return recover(restore);
    }
    if (phase == WAITING_FOR_VOLUMES) {
      return awaitVolumes(restore);
    }
    return start(restore);
  }

  private Duration start(Restore restore) {
    StartCheck check = StartCheck.of(client, repositories, restore);
    if (check.failure() != null) {
      return finish(restore, FAILED, check.failure());
    }
    if (check.waitFor() != null) {
      return waitFor(restore, check.waitFor());
    }
    RestoreSpec spec = restore.getSpec();
    BackupStatus bs = check.backup();
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
            Times.parse(bs.expiration),
            started.toString(),
            settings.clock());
    Repository opened;
    try {
      opened = repositories.open(check.repository());
    } catch (IOException | InvalidResourceException | RuntimeException e) {
      return finish(restore, FAILED, "repository " + bs.repository + ": " + e.getMessage());
    }
    Duration next = null;
    try (Repository repo = opened) {
      next = restoreFrom(repo, restore, check, outcome);
    } catch (IOException e) {
      // closing it: what the restore wrote was durable before
      LOG.warn(
          "restore {}: closing repository {}", restore.getMetadata().getName(), bs.repository, e);
    }
    return next;
  }

  /** InProgress: reads the backup, restores its objects, then waits for volumes or ends. */
  private Duration restoreFrom(
      Repository repo, Restore restore, StartCheck check, Outcome outcome) {
    RestoreSpec spec = restore.getSpec();
    BackupContents contents;
    try {
      contents = BackupContents.read(repo, check.snapshot());
    } catch (IOException | RuntimeException e) {
      LOG.warn("restore {}: backup not read", restore.getMetadata().getName(), e);
      return finish(
          restore,
          FAILED,
          "reading backup "
              + spec.backupName
              + " from repository "
              + outcome.repository
              + ": "
              + e.getMessage());
    }
    try {
      new ObjectRestorer(client, restore, image, outcome)
          .run(contents, check.selection(), check.update(), !Boolean.FALSE.equals(spec.restorePVs));
    } catch (RuntimeException e) {
      LOG.warn("restore {} stopped", restore.getMetadata().getName(), e);
      counts(restore.getStatus(), outcome);
      return finish(
          restore,
          FAILED,
          "stopped after "
              + outcome.objects.size()
              + " objects by an unexpected error: "
              + e.getMessage());
    }
    counts(restore.getStatus(), outcome);
    if (outcome.volumes.isEmpty()) {
      return end(restore, outcome, repo, List.of(), null);
    }
    RestoreStatus status = restore.getStatus();
    status.progress = ProgressRecord.of(outcome);
    status.phase = WAITING_FOR_VOLUMES;
    status.volumes = outcome.volumes.size();
    status.volumesCompleted = 0;
    status.volumesFailed = 0;
    status.message = waitingMessage(status.volumes, 0, 0);
    restore = client.resource(restore).updateStatus();
    events.record(restore, Events.NORMAL, WAITING_FOR_VOLUMES.value(), status.message);
    return settings.recheck();
  }

  /** WaitingForVolumes: ends once every PodVolumeRestore is Completed or Failed. */
  private Duration awaitVolumes(Restore restore) {
    RestoreStatus status = restore.getStatus();
    String uid = restore.getMetadata().getUid();
    String ns = restore.getMetadata().getNamespace();
    List<PodVolumeRestore> requests =
        client
            .resources(PodVolumeRestore.class)
            .inNamespace(ns)
            .withLabel(SteleApi.RESTORE_UID_LABEL, uid)
            .list()
            .getItems();
    Outcome outcome;
    if (status.progress != null) {
      outcome = ProgressRecord.resume(restore, settings.clock());
    } else {
      // Left waiting by an operator that kept the record in memory.
      Backup backup =
          client
              .resources(Backup.class)
              .inNamespace(ns)
              .withName(restore.getSpec().backupName)
              .get();
      outcome =
          Outcome.resumed(
              restore, requests, backup == null ? null : backup.getStatus(), settings.clock());
    }
    VolumeProgress progress = VolumeProgress.of(requests, outcome.volumes, status.volumes);
    status.volumesCompleted = progress.completed();
    status.volumesFailed = progress.failed();
    if (!progress.done()) {
      String message = waitingMessage(progress.expected(), progress.completed(), progress.failed());
      if (!message.equals(status.message)) {
        status.message = message;
        client.resource(restore).updateStatus();
      }
      return settings.recheck();
    }
    if (outcome.repository == null) {
      return end(restore, outcome, null, progress.volumes(), "its repository is not known");
    }
    try (Repository repo = repositories.open(repositories.named(ns, outcome.repository))) {
      return end(restore, outcome, repo, progress.volumes(), null);
    } catch (IOException | InvalidResourceException | RuntimeException e) {
      return end(restore, outcome, null, progress.volumes(), e.getMessage());
    }
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
    boolean volumesFailed = status.volumesFailed != null && status.volumesFailed > 0;
    boolean errors = status.errors != null && status.errors > 0;
    RunPhase phase = errors || volumesFailed ? PARTIALLY_FAILED : COMPLETED;
    outcome.log("restore " + phase);
    RestoreDocument document =
        outcome.document(restore, phase, settings.clock().instant(), volumes);
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
    status.progress = null;
    String message = outcome.summary(status);
    if (notStored != null) {
      status.warnings = (status.warnings == null ? 0 : status.warnings) + 1;
      message += "; warning: the results were not stored in the repository: " + notStored;
      events.record(restore, Events.WARNING, "ResultsNotStored", notStored);
    }
    return finish(restore, phase, message);
  }

  /** A Restore left InProgress: completed from its results if they were written, else Failed. */
  private Duration recover(Restore restore) {
    String ns = restore.getMetadata().getNamespace();
    Backup backup =
        client.resources(Backup.class).inNamespace(ns).withName(restore.getSpec().backupName).get();
    if (backup == null || backup.getStatus() == null || backup.getStatus().repository == null) {
      return finish(restore, FAILED, RESTARTED);
    }
    BackupStorageLocationRepository bslr;
    try {
      bslr = repositories.named(ns, backup.getStatus().repository);
    } catch (InvalidResourceException e) {
      // No repository, so no results in it.
      return finish(restore, FAILED, RESTARTED);
    }
    SnapshotCatalog.Entry found;
    RestoreDocument document;
    try (Repository repo = repositories.open(bslr)) {
      found = Results.find(repo, restore.getMetadata().getUid());
      document = found == null ? null : Results.read(repo, found.manifest());
    } catch (IOException | InvalidResourceException | RuntimeException e) {
      return waitFor(
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
        RunPhase.of(document.phase()).orElse(COMPLETED),
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

  private static String waitingMessage(int expected, int completed, int failed) {
    return "waiting for the node agent to fill "
        + (expected - completed - failed)
        + " of "
        + expected
        + " pod volumes";
  }

  /** Not started yet: says why in the message, and looks again later. */
  private Duration waitFor(Restore restore, String why) {
    if (!why.equals(restore.getStatus().message)) {
      restore.getStatus().message = why;
      client.resource(restore).updateStatus();
    }
    return settings.recheck();
  }

  private Duration finish(Restore restore, RunPhase phase, String message) {
    RestoreStatus status = restore.getStatus();
    status.phase = phase;
    status.message = message;
    status.completionTimestamp = settings.clock().instant().toString();
    client.resource(restore).updateStatus();
    events.record(
        restore, phase == FAILED ? Events.WARNING : Events.NORMAL, phase.value(), message);
    return null;
  }
}
