package dev.stele.operator.backup;

import static dev.stele.k8s.api.RunPhase.FAILED;
import static dev.stele.k8s.api.RunPhase.IN_PROGRESS;
import static dev.stele.k8s.api.RunPhase.WAITING_FOR_VOLUMES;

import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupSpec;
import dev.stele.k8s.api.BackupStatus;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.Durations;
import dev.stele.k8s.api.InvalidResourceException;
import dev.stele.k8s.api.LabelSelectors;
import dev.stele.k8s.api.PodVolumeBackup;
import dev.stele.k8s.api.RunPhase;
import dev.stele.k8s.api.SteleApi;
import dev.stele.operator.hook.HookReport;
import dev.stele.operator.hook.HookRunner;
import dev.stele.operator.kube.Discovery;
import dev.stele.operator.kube.Events;
import dev.stele.operator.kube.Pass;
import dev.stele.operator.kube.PhasedReconciler;
import dev.stele.operator.kube.ResourceType;
import dev.stele.operator.kube.Settings;
import dev.stele.operator.kube.Stopping;
import dev.stele.operator.repository.Repositories;
import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import dev.stele.snapshot.SnapshotCatalog;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.Mappers;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles a {@link Backup}. The backup exists once its manifest does (write-once.md rule 5);
 * until then only the resource's status tells its progress:
 *
 * <ol>
 *   <li><b>New</b>: once the repository is Ready, the selected API resources are collected into the
 *       resources part (see {@link BackupSnapshots}) and one {@link PodVolumeBackup} is created per
 *       selected pod volume ({@link VolumeSelection}, {@link VolumeRequests}), owned by the Backup;
 *       the pods' pre hooks run in between, their post hooks before the manifest ({@link
 *       PodHooks}).
 *   <li><b>InProgress</b> at the start of a pass was left mid-collection by a process that stopped:
 *       completed from its manifest if one exists, otherwise Failed with that reason (it is never
 *       collected twice).
 *   <li><b>WaitingForVolumes</b>: node agents fill the requests, each volume becoming a snapshot of
 *       its own; changes to them wake this reconciler. The requests live in the cluster and the
 *       parts in the repository, so a restart resumes here.
 *   <li>When every request has finished, the backup's manifest is written once, and the phase
 *       becomes <b>Completed</b>, or <b>PartiallyFailed</b> when objects or volumes could not be
 *       backed up. A manifest the store refuses makes it <b>Failed</b>, with the store's answer.
 * </ol>
 *
 * <p>No pass writes a manifest when one with the backup's uid exists. A Backup created by sync
 * (annotated {@code stele.dev/synced-from}) is never run.
 */
@ControllerConfiguration(name = "backup")
public final class BackupReconciler extends PhasedReconciler<Backup, BackupStatus, RunPhase> {
  private static final Logger LOG = LoggerFactory.getLogger(BackupReconciler.class);

  /** Default {@code spec.ttl}, Velero's. */
  static final Duration DEFAULT_TTL = Duration.ofDays(30);

  public static final String RESTARTED =
      "operator restarted during backup; nothing was written that makes it exist";

  private final Settings settings;
  private final Repositories repositories;
  private final VolumeRequests requests;
  private final HookRunner hooks;

  public BackupReconciler(KubernetesClient client, Settings settings) {
    super(client, new Events(client, settings.clock()), BackupStatus::new);
    this.settings = settings;
    this.repositories = new Repositories(client, settings);
    this.requests = new VolumeRequests(client);
    this.hooks = new HookRunner(client, settings.clock());
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
  protected boolean serves(Backup backup) {
    var notes = backup.getMetadata().getAnnotations();
    return notes == null || !notes.containsKey(SteleApi.SYNCED_FROM_ANNOTATION);
  }

  @Override
  protected Duration advance(Pass<Backup, BackupStatus> pass, RunPhase phase) {
    BackupSpec spec =
        pass.resource().getSpec() == null ? new BackupSpec() : pass.resource().getSpec();
    Duration ttl;
    BackupStorageLocationRepository bslr;
    try {
      ttl = Durations.parse(spec.ttl, DEFAULT_TTL);
    } catch (IllegalArgumentException e) {
      return finish(pass, FAILED, "spec.ttl: " + e.getMessage());
    }
    String badSelector = LabelSelectors.problem(spec.labelSelector, spec.orLabelSelectors);
    if (badSelector != null) {
      return finish(pass, FAILED, badSelector);
    }
    try {
      bslr =
          repositories.resolve(
              pass.resource().getMetadata().getNamespace(), spec.repository, spec.storageLocation);
    } catch (InvalidResourceException e) {
      return finish(pass, FAILED, e.getMessage());
    }
    pass.status().repository = bslr.getMetadata().getName();
    if (phase == null) {
      String why = Repositories.notReady(bslr);
      return why == null ? start(pass, bslr, ttl) : note(pass, why);
    }
    return switch (phase) {
      case IN_PROGRESS -> recover(pass, bslr);
      case WAITING_FOR_VOLUMES -> awaitVolumes(pass, bslr);
      case COMPLETED, PARTIALLY_FAILED, FAILED, FAILED_VALIDATION ->
          throw new IllegalStateException("final: " + phase);
    };
  }

  /** New: collects the resources, writes them as a part, and asks for the volumes. */
  private Duration start(
      Pass<Backup, BackupStatus> pass, BackupStorageLocationRepository bslr, Duration ttl) {
    BackupStatus status = pass.status();
    Instant started = settings.clock().instant();
    status.phase = IN_PROGRESS;
    status.message = "collecting resources";
    status.startTimestamp = started.toString();
    status.expiration = started.plus(ttl).toString();
    Backup backup = pass.write();
    status = pass.status();
    PodHooks podHooks = podHooks(backup);
    try (Repository repo = repositories.open(bslr)) {
      BackupSnapshots snapshots = new BackupSnapshots(repo, settings.clock());
      if (snapshots.manifestOf(BackupRun.uid(backup)) != null) {
        // Only a Backup recreated with the same uid could get here; never a second manifest.
        return finish(pass, FAILED, "a manifest for this backup already exists");
      }
      List<ResourceType> types =
          settings.backupResources().isEmpty()
              ? Discovery.types(client)
              : settings.backupResources();
      BackupSnapshots.Part part;
      try {
        part =
            snapshots.writeResources(
                BackupRun.of(backup), new ResourceCollector(client, types, repo), podHooks::pre);
      } catch (IOException | RuntimeException e) {
        LOG.warn("backup {} failed", backup.getMetadata().getName(), e);
        return fail(pass, "collecting resources: " + e.getMessage(), e, podHooks);
      }
      var collected = part.collected();
      status.resourcesSnapshotID = part.id().hex();
      status.items = collected.items();
      status.warnings = part.warnings().size();
      status.errors = part.errors().size();
      count(pass, part.pre().report());
      status.postHookPods = part.pre().postPods().isEmpty() ? null : part.pre().postPods();
      List<VolumeSelection.PodVolume> volumes = part.volumes();
      if (volumes.isEmpty()) {
        return complete(pass, snapshots, List.of());
      }
      for (VolumeSelection.PodVolume volume : volumes) {
        requests.create(backup, volume);
      }
      status.phase = WAITING_FOR_VOLUMES;
      status.volumes = volumes.size();
      status.volumesCompleted = 0;
      status.volumesFailed = 0;
      status.message = "waiting for " + volumes.size() + " pod volumes";
      pass.write(Events.NORMAL, WAITING_FOR_VOLUMES.value(), status.message);
      return settings.recheck();
    } catch (IOException | InvalidResourceException | RuntimeException e) {
      return fail(pass, "repository " + status.repository + ": " + e.getMessage(), e, podHooks);
    }
  }

  /** WaitingForVolumes: counts the finished requests; writes the manifest once all have. */
  private Duration awaitVolumes(
      Pass<Backup, BackupStatus> pass, BackupStorageLocationRepository bslr) {
    BackupStatus status = pass.status();
    List<PodVolumeBackup> all = requests.of(pass.resource());
    VolumeRequests.Tally done = VolumeRequests.Tally.of(all);
    int expected = status.volumes == null ? all.size() : status.volumes;
    if (done.completed() + done.failed() < expected && all.size() >= expected) {
      if (!Integer.valueOf(done.completed()).equals(status.volumesCompleted)
          || !Integer.valueOf(done.failed()).equals(status.volumesFailed)) {
        status.volumesCompleted = done.completed();
        status.volumesFailed = done.failed();
        status.message =
            "waiting for "
                + (expected - done.completed() - done.failed())
                + " of "
                + expected
                + " pod volumes";
        pass.write();
      }
      return settings.recheck();
    }
    status.volumesCompleted = done.completed();
    status.volumesFailed = expected - done.completed();
    try (Repository repo = repositories.open(bslr)) {
      return complete(pass, new BackupSnapshots(repo, settings.clock()), all);
    } catch (IOException | InvalidResourceException | RuntimeException e) {
      return note(pass, "volumes done; cannot yet write the manifest: " + e.getMessage());
    }
  }

  /** Writes the manifest (unless a pass before a restart did) and ends the backup. */
  private Duration complete(
      Pass<Backup, BackupStatus> pass, BackupSnapshots snapshots, List<PodVolumeBackup> volumes) {
    BackupSnapshots.Written written;
    try {
      SnapshotCatalog.Entry existing = snapshots.manifestOf(BackupRun.uid(pass.resource()));
      if (existing != null) {
        return fromManifest(pass, existing);
      }
      HookReport post = postHooks(pass);
      written =
          snapshots.writeBackup(
              BackupRun.of(pass.resource()),
              Id.parse(pass.status().resourcesSnapshotID),
              volumes,
              post);
    } catch (IOException | RuntimeException e) {
      LOG.warn("backup {}: manifest not written", pass.resource().getMetadata().getName(), e);
      return fail(
          pass,
          "writing the backup manifest failed, so the backup does not exist: " + e.getMessage(),
          e);
    }
    BackupResult.Ending end = BackupResult.of(pass.status(), written);
    return finish(pass, end.phase(), end.message());
  }

  private PodHooks podHooks(Backup backup) {
    return new PodHooks(client, hooks, backup.getSpec() == null ? null : backup.getSpec().hooks);
  }

  /**
   * Runs the post hooks of the pods the pre hooks left for them, at most once: the status says they
   * started before the first runs, so an operator restarted after never runs them again (and says
   * it cannot know what they did).
   */
  private HookReport postHooks(Pass<Backup, BackupStatus> pass) {
    List<String> pods = pass.status().postHookPods;
    if (pods == null || pods.isEmpty()) {
      return HookReport.NONE;
    }
    if (Boolean.TRUE.equals(pass.status().postHooksStarted)) {
      return HookReport.warning(
          "the post hooks of "
              + String.join(", ", pods)
              + " were started by an operator that stopped before the backup was written: they"
              + " are not run again, and what they did is not known");
    }
    pass.status().postHooksStarted = true;
    pass.write();
    HookReport report = podHooks(pass.resource()).post(pods);
    count(pass, report);
    return report;
  }

  /** Adds what {@code report} did to the status' hook counts, and records an Event per failure. */
  private void count(Pass<Backup, BackupStatus> pass, HookReport report) {
    if (report.attempted() == 0 && report.failures().isEmpty()) {
      return;
    }
    pass.status().hookStatus = report.addTo(pass.status().hookStatus);
    for (String failure : report.failures()) {
      pass.event(Events.WARNING, "HookFailed", failure);
    }
  }

  /** InProgress, found by a pass: complete the backup from its manifest, or fail it. */
  private Duration recover(Pass<Backup, BackupStatus> pass, BackupStorageLocationRepository bslr) {
    SnapshotCatalog.Entry found;
    try (Repository repo = repositories.open(bslr)) {
      found =
          new BackupSnapshots(repo, settings.clock()).manifestOf(BackupRun.uid(pass.resource()));
    } catch (IOException | InvalidResourceException | RuntimeException e) {
      return note(
          pass,
          "left InProgress by an operator that stopped; cannot yet check repository "
              + bslr.getMetadata().getName()
              + " for its manifest: "
              + e.getMessage());
    }
    return found == null ? finish(pass, FAILED, RESTARTED) : fromManifest(pass, found);
  }

  private Duration fromManifest(Pass<Backup, BackupStatus> pass, SnapshotCatalog.Entry found) {
    BackupResult.Ending end = BackupResult.found(pass.status(), found);
    return finish(pass, end.phase(), end.message());
  }

  /** Says why the backup waits, once; returns when to look again. */
  private Duration note(Pass<Backup, BackupStatus> pass, String why) {
    if (!why.equals(pass.status().message)) {
      pass.status().message = why;
      pass.write();
    }
    return settings.recheck();
  }

  /**
   * Fails the backup because of {@code cause} — unless the operator stopping caused it: then the
   * status keeps its phase and the next operator resumes or fails the backup with the real reason.
   */
  private Duration fail(Pass<Backup, BackupStatus> pass, String message, Throwable cause) {
    if (Stopping.explains(cause)) {
      throw new Stopping.Stopped(cause);
    }
    return finish(pass, FAILED, message);
  }

  /**
   * {@link #fail(Pass, String, Throwable)}, after the post hooks of the pods whose pre hooks ran
   * (what a pre hook froze is thawed even when the backup fails).
   */
  private Duration fail(
      Pass<Backup, BackupStatus> pass, String message, Throwable cause, PodHooks podHooks) {
    PodHooks.Pre ran = podHooks.ran();
    if (Stopping.explains(cause) || ran == null || ran.postPods().isEmpty()) {
      return fail(pass, message, cause);
    }
    count(pass, ran.report());
    HookReport post = podHooks.post(ran.postPods());
    count(pass, post);
    return finish(
        pass,
        FAILED,
        message
            + "; the post hooks of "
            + String.join(", ", ran.postPods())
            + " ran"
            + (post.failures().isEmpty() ? "" : ": " + String.join("; ", post.failures())));
  }

  private Duration finish(Pass<Backup, BackupStatus> pass, RunPhase phase, String message) {
    BackupStatus status = pass.status();
    status.phase = phase;
    status.message = message;
    if (phase == FAILED) {
      // The error that failed it counts, beside any the collection met before.
      status.errors = (status.errors == null ? 0 : status.errors) + 1;
    }
    status.completionTimestamp = settings.clock().instant().toString();
    pass.write(phase == FAILED ? Events.WARNING : Events.NORMAL, phase.value(), message);
    return null;
  }
}
