package dev.stele.operator.restore;

import static dev.stele.k8s.api.RunPhase.COMPLETED;
import static dev.stele.k8s.api.RunPhase.FAILED;
import static dev.stele.k8s.api.RunPhase.FAILED_VALIDATION;
import static dev.stele.k8s.api.RunPhase.IN_PROGRESS;
import static dev.stele.k8s.api.RunPhase.PARTIALLY_FAILED;
import static dev.stele.k8s.api.RunPhase.WAITING_FOR_VOLUMES;

import dev.stele.k8s.api.BackupStatus;
import dev.stele.k8s.api.InvalidResourceException;
import dev.stele.k8s.api.PodVolumeRestore;
import dev.stele.k8s.api.Restore;
import dev.stele.k8s.api.RestoreSpec;
import dev.stele.k8s.api.RestoreStatus;
import dev.stele.k8s.api.RunPhase;
import dev.stele.operator.hook.HookRunner;
import dev.stele.operator.kube.Events;
import dev.stele.operator.kube.Pass;
import dev.stele.operator.kube.PhasedReconciler;
import dev.stele.operator.kube.Settings;
import dev.stele.operator.repository.Repositories;
import dev.stele.repo.Repository;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles a {@link Restore}, as Velero does on a repository that is written once:
 *
 * <ol>
 *   <li><b>New</b>: once its Backup is finished and the backup's repository is Ready ({@link
 *       StartCheck}), the restore becomes InProgress and, in the same pass, reads the backup's
 *       snapshot ({@link BackupContents}) and creates the selected objects ({@link
 *       ObjectRestorer}). Without volumes to fill it ends there.
 *   <li><b>InProgress</b> at the start of a pass was left by a process that stopped during it (a
 *       pass never ends in InProgress): completed from its results if they were written, else
 *       Failed, as Velero does.
 *   <li><b>WaitingForVolumes</b> while any {@link PodVolumeRestore} is neither Completed nor
 *       Failed. What the results need is in {@code status.progress} ({@link ProgressRecord}), so
 *       any process carries on.
 *   <li>At the end the results are written once ({@link Results}) and the phase becomes
 *       <b>Completed</b>, or <b>PartiallyFailed</b> when an object or a volume failed;
 *       <b>Failed</b> when nothing could be restored.
 * </ol>
 */
@ControllerConfiguration(name = "restore")
public final class RestoreReconciler extends PhasedReconciler<Restore, RestoreStatus, RunPhase> {
  private static final Logger LOG = LoggerFactory.getLogger(RestoreReconciler.class);

  static final String RESTARTED =
      "operator restarted during restore; what it created so far stays in the cluster";

  private final Settings settings;
  private final Repositories repositories;
  private final Duration crdTimeout;
  private final PostRestoreHooks postHooks;

  public RestoreReconciler(KubernetesClient client, Settings settings) {
    this(client, settings, CrdReadiness.TIMEOUT);
  }

  /** With {@code crdTimeout} the longest a restore waits for a definition to be Established. */
  RestoreReconciler(KubernetesClient client, Settings settings, Duration crdTimeout) {
    super(client, new Events(client, settings.clock()), RestoreStatus::new);
    this.settings = settings;
    this.repositories = new Repositories(client, settings);
    this.crdTimeout = crdTimeout;
    this.postHooks =
        new PostRestoreHooks(client, new HookRunner(client, settings.clock()), settings.clock());
  }

  @Override
  public List<EventSource<?, Restore>> prepareEventSources(EventSourceContext<Restore> context) {
    return RestoreTriggers.sources(context);
  }

  @Override
  protected Restore observe(Restore cached) {
    Restore restore = super.observe(cached);
    if (restore != null && restore.getSpec() == null) {
      restore.setSpec(new RestoreSpec());
    }
    return restore;
  }

  @Override
  protected Duration advance(Pass<Restore, RestoreStatus> pass, RunPhase phase) {
    if (phase == IN_PROGRESS) {
      return recover(pass);
    }
    if (phase == WAITING_FOR_VOLUMES) {
      return awaitVolumes(pass);
    }
    return start(pass);
  }

  /** New: once it can start, becomes InProgress and restores the objects. */
  private Duration start(Pass<Restore, RestoreStatus> pass) {
    StartCheck check = StartCheck.of(client, repositories, pass.resource());
    if (check.failure() != null) {
      return finish(pass, check.invalid() ? FAILED_VALIDATION : FAILED, check.failure());
    }
    if (check.waitFor() != null) {
      return waitFor(pass, check.waitFor());
    }
    String backup = pass.resource().getSpec().backupName;
    BackupStatus bs = check.backup();
    Instant started = settings.clock().instant();
    pass.status().phase = IN_PROGRESS;
    pass.status().startTimestamp = started.toString();
    pass.status().message = "restoring from backup " + backup;
    pass.write();
    Outcome outcome = check.outcome(backup, started, settings.clock());
    Repository repo;
    try {
      repo = repositories.open(check.repository());
    } catch (IOException | InvalidResourceException | RuntimeException e) {
      return finish(pass, FAILED, "repository " + bs.repository + ": " + e.getMessage());
    }
    Duration next = null;
    try (repo) {
      next = restoreObjects(pass, repo, check, outcome);
    } catch (IOException e) {
      // closing it: what the restore wrote was durable before
      LOG.warn(
          "restore {}: closing repository {}",
          pass.resource().getMetadata().getName(),
          bs.repository,
          e);
    }
    return next;
  }

  /** InProgress: reads the backup, restores its objects, then waits for volumes or ends. */
  private Duration restoreObjects(
      Pass<Restore, RestoreStatus> pass, Repository repo, StartCheck check, Outcome outcome) {
    Restore restore = pass.resource();
    RestoreSpec spec = restore.getSpec();
    BackupContents contents;
    try {
      contents = BackupContents.read(repo, check.snapshot());
    } catch (IOException | RuntimeException e) {
      LOG.warn("restore {}: backup not read", restore.getMetadata().getName(), e);
      return finish(
          pass,
          FAILED,
          "reading backup "
              + spec.backupName
              + " from repository "
              + outcome.repository
              + ": "
              + e.getMessage());
    }
    try {
      new ObjectRestorer(client, restore, settings.image(), outcome, crdTimeout)
          .run(
              contents,
              check.selection(),
              check.modifiers(),
              check.update(),
              !Boolean.FALSE.equals(spec.restorePVs));
    } catch (RuntimeException e) {
      LOG.warn("restore {} stopped", restore.getMetadata().getName(), e);
      outcome.countInto(pass.status());
      return finish(
          pass,
          FAILED,
          "stopped after "
              + outcome.objects.size()
              + " objects by an unexpected error: "
              + e.getMessage());
    }
    outcome.countInto(pass.status());
    if (outcome.volumes.isEmpty() && outcome.hookPods.isEmpty()) {
      return end(pass, outcome, repo, List.of(), null);
    }
    RestoreStatus status = pass.status();
    status.progress = ProgressRecord.of(outcome);
    status.phase = WAITING_FOR_VOLUMES;
    if (outcome.volumes.isEmpty()) {
      status.message = "waiting for " + outcome.hookPods.size() + " pods' post-restore hooks";
      pass.write();
      return awaitVolumes(pass);
    }
    status.volumes = outcome.volumes.size();
    status.volumesCompleted = 0;
    status.volumesFailed = 0;
    status.message = VolumeProgress.waiting(status.volumes, 0, 0);
    pass.write(Events.NORMAL, WAITING_FOR_VOLUMES.value(), status.message);
    return settings.recheck();
  }

  /** WaitingForVolumes: ends once every PodVolumeRestore is Completed or Failed. */
  private Duration awaitVolumes(Pass<Restore, RestoreStatus> pass) {
    RestoreStatus status = pass.status();
    List<PodVolumeRestore> requests = VolumeFilling.requests(client, pass.resource());
    Outcome outcome = ProgressRecord.resume(client, pass.resource(), requests, settings.clock());
    VolumeProgress progress = VolumeProgress.of(requests, outcome.volumes, status.volumes);
    status.volumesCompleted = progress.completed();
    status.volumesFailed = progress.failed();
    if (!progress.done()) {
      return waitFor(pass, progress.message());
    }
    if (!outcome.hookPods.isEmpty()) {
      int before = outcome.hookPods.size();
      String waiting = postHooks.advance(pass, outcome);
      outcome.countInto(pass.status());
      if (waiting != null) {
        if (outcome.hookPods.size() != before) {
          pass.status().progress = ProgressRecord.of(outcome);
          pass.status().message = waiting;
          pass.write();
        }
        return waitFor(pass, waiting);
      }
    }
    if (outcome.repository == null) {
      return end(pass, outcome, null, progress.volumes(), "its repository is not known");
    }
    String ns = pass.resource().getMetadata().getNamespace();
    try (Repository repo = repositories.open(repositories.named(ns, outcome.repository))) {
      return end(pass, outcome, repo, progress.volumes(), null);
    } catch (IOException | InvalidResourceException | RuntimeException e) {
      return end(pass, outcome, null, progress.volumes(), e.getMessage());
    }
  }

  /**
   * The end: writes the results (unless {@code repo} is null because it could not be opened: {@code
   * unreachable} says why) and the final phase.
   */
  private Duration end(
      Pass<Restore, RestoreStatus> pass,
      Outcome outcome,
      Repository repo,
      List<RestoreDocument.Volume> volumes,
      String unreachable) {
    RestoreStatus status = pass.status();
    boolean failed =
        (status.errors != null && status.errors > 0)
            || (status.volumesFailed != null && status.volumesFailed > 0);
    RunPhase phase = failed ? PARTIALLY_FAILED : COMPLETED;
    outcome.log("restore " + phase);
    var document = outcome.document(pass.resource(), phase, settings.clock().instant(), volumes);
    String notStored = unreachable;
    if (repo != null) {
      try {
        status.resultsSnapshotID =
            Results.writeOnce(repo, pass.resource(), document, outcome).hex();
      } catch (IOException | RuntimeException e) {
        LOG.warn("restore {}: results not stored", pass.resource().getMetadata().getName(), e);
        notStored = e.getMessage();
      }
    }
    status.progress = null;
    String message = outcome.summary(status);
    if (notStored != null) {
      status.warnings = (status.warnings == null ? 0 : status.warnings) + 1;
      message += "; warning: the results were not stored in the repository: " + notStored;
      pass.event(Events.WARNING, "ResultsNotStored", notStored);
    }
    return finish(pass, phase, message);
  }

  /** InProgress, found by a pass: completed from its results if they were written, else Failed. */
  private Duration recover(Pass<Restore, RestoreStatus> pass) {
    ResultsLookup search = ResultsLookup.of(client, repositories, pass.resource());
    if (search.error() != null) {
      return waitFor(
          pass,
          "left InProgress by an operator that stopped; cannot yet look for its results in"
              + " repository "
              + search.repository()
              + ": "
              + search.error());
    }
    if (search.found() == null) {
      return finish(pass, FAILED, RESTARTED);
    }
    RunPhase phase = search.countInto(pass.status());
    return finish(
        pass,
        phase,
        "completed from its results after the operator restarted (snapshot "
            + search.found().id().hex()
            + ")");
  }

  /** Says what the restore waits for, once; returns when to look again. */
  private Duration waitFor(Pass<Restore, RestoreStatus> pass, String why) {
    if (!why.equals(pass.status().message)) {
      pass.status().message = why;
      pass.write();
    }
    return settings.recheck();
  }

  private Duration finish(Pass<Restore, RestoreStatus> pass, RunPhase phase, String message) {
    RestoreStatus status = pass.status();
    status.phase = phase;
    status.message = message;
    status.completionTimestamp = settings.clock().instant().toString();
    pass.write(
        phase == FAILED || phase == FAILED_VALIDATION ? Events.WARNING : Events.NORMAL,
        phase.value(),
        message);
    return null;
  }
}
