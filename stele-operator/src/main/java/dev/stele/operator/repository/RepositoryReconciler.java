package dev.stele.operator.repository;

import static dev.stele.k8s.api.RepositoryPhase.NOT_READY;
import static dev.stele.k8s.api.RepositoryPhase.READY;

import dev.stele.k8s.api.BackupStorageLocation;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.BackupStorageLocationRepositoryStatus;
import dev.stele.k8s.api.RepositoryPhase;
import dev.stele.operator.kube.Conditions;
import dev.stele.operator.kube.Events;
import dev.stele.operator.kube.OperatorMetrics;
import dev.stele.operator.kube.Pass;
import dev.stele.operator.kube.PhasedReconciler;
import dev.stele.operator.kube.SecretTriggers;
import dev.stele.operator.kube.Settings;
import dev.stele.operator.kube.Stopping;
import dev.stele.operator.location.LocationReconciler;
import dev.stele.repo.Repository;
import dev.stele.repo.RepositoryFormat;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Reconciles a {@link BackupStorageLocationRepository}: once its location is Available, creates the
 * repository under {@code <prefix>/repositories/<name>/} or adopts the one there, keeps its status,
 * and runs maintenance on schedule ({@link RepositoryMaintenance}). Deleting the resource deletes
 * the repository only under {@code deletionPolicy: Delete} ({@link RepositoryDeletion}).
 *
 * <p>It never creates a repository where anything already is: a wrong password, a foreign format or
 * a read-only location leaves it NotReady with a message.
 */
@ControllerConfiguration(name = "backupstoragelocationrepository")
public final class RepositoryReconciler
    extends PhasedReconciler<
        BackupStorageLocationRepository, BackupStorageLocationRepositoryStatus, RepositoryPhase>
    implements Cleaner<BackupStorageLocationRepository> {
  private final Settings settings;
  private final Events events;
  private final OperatorMetrics metrics;
  private final Provisioning provisioning;

  public RepositoryReconciler(KubernetesClient client, Settings settings, OperatorMetrics metrics) {
    this(client, settings, metrics, new Events(client, settings.clock()));
  }

  private RepositoryReconciler(
      KubernetesClient client, Settings settings, OperatorMetrics metrics, Events events) {
    super(client, events, BackupStorageLocationRepositoryStatus::new);
    this.settings = settings;
    this.events = events;
    this.metrics = metrics;
    this.provisioning = new Provisioning(client, settings, events);
  }

  /** Index of the primary cache: a repository under the key {@code <namespace>/<location>}. */
  static final String BY_LOCATION = "by-location";

  /** Index of the primary cache: a repository under {@code <namespace>/<password Secret>}. */
  static final String BY_PASSWORD = "by-password-secret";

  /**
   * Watches locations and password Secrets too: a change of a location (its phase, above all) or of
   * a repository's password Secret reconciles every repository that names it at once, instead of at
   * the next recheck; the repository is then opened anew with the new password ({@link
   * SecretTriggers}).
   */
  @Override
  public List<EventSource<?, BackupStorageLocationRepository>> prepareEventSources(
      EventSourceContext<BackupStorageLocationRepository> context) {
    context
        .getPrimaryCache()
        .addIndexer(
            BY_LOCATION,
            r ->
                r.getSpec() == null || r.getSpec().backupStorageLocation == null
                    ? List.of()
                    : List.of(
                        r.getMetadata().getNamespace() + "/" + r.getSpec().backupStorageLocation));
    var config =
        InformerEventSourceConfiguration.from(
                BackupStorageLocation.class, BackupStorageLocationRepository.class)
            .withNamespacesInheritedFromController()
            .withSecondaryToPrimaryMapper(
                (BackupStorageLocation bsl) ->
                    context
                        .getPrimaryCache()
                        .byIndex(
                            BY_LOCATION,
                            bsl.getMetadata().getNamespace() + "/" + bsl.getMetadata().getName())
                        .stream()
                        .map(ResourceID::fromResource)
                        .collect(Collectors.toSet()))
            .build();
    return List.of(
        new InformerEventSource<>(config, context),
        SecretTriggers.of(
            context,
            BackupStorageLocationRepository.class,
            BY_PASSWORD,
            r -> List.of(Passwords.ref(r).getName()),
            settings.repositories()));
  }

  @Override
  public DeleteControl cleanup(
      BackupStorageLocationRepository bslr, Context<BackupStorageLocationRepository> context) {
    return new RepositoryDeletion(client, settings, events).cleanup(bslr);
  }

  /** The cached copy is enough: a pass finds out everything the status says again. */
  @Override
  protected BackupStorageLocationRepository observe(BackupStorageLocationRepository cached) {
    return cached;
  }

  /**
   * Ready once the repository is created or opened (then maintenance runs when due, and the counts
   * are taken), NotReady with what to change otherwise; returns when to look again.
   */
  @Override
  protected Duration advance(
      Pass<BackupStorageLocationRepository, BackupStorageLocationRepositoryStatus> pass,
      RepositoryPhase before) {
    BackupStorageLocationRepository bslr = pass.resource();
    Instant now = settings.clock().instant();
    BackupStorageLocationRepositoryStatus status = pass.status();
    String oldMessage = status.message;
    Duration next = settings.recheck();
    String refused = null;
    try {
      Provisioning.Provisioned p = provisioning.provision(bslr, status);
      try (Repository repo = p.repo()) {
        RepositoryFormat f = repo.format();
        status.phase = READY;
        RepositoryFacts.format(f, p.url(), status);
        refused = RepositoryFacts.refusedChanges(bslr.getSpec(), f);
        status.message = refused == null ? "" : refused;
        ReadyCondition.set(bslr, status, now);
        if (p.writable()) {
          next = new RepositoryMaintenance(settings, events, metrics).runIfDue(bslr, repo, status);
        }
        RepositoryFacts.count(repo, status);
      }
    } catch (Provisioning.NotReadyException e) {
      status.phase = NOT_READY;
      status.message = e.getMessage();
    } catch (IOException | RuntimeException e) {
      if (Stopping.explains(e)) {
        throw new Stopping.Stopped(e);
      }
      status.phase = NOT_READY;
      status.message = "repository: " + e.getMessage();
    }
    status.observedGeneration = LocationReconciler.generation(bslr);
    if (status.phase != READY) {
      ReadyCondition.set(bslr, status, now);
    }
    Conditions.set(
        status.conditions,
        "SpecAccepted",
        refused == null,
        refused == null ? "Accepted" : "CreationParameterChanged",
        refused,
        status.observedGeneration,
        now);
    metrics.repositoryPhase(bslr, status.phase);
    pass.write();
    if (before != status.phase) {
      pass.event(
          status.phase == READY ? Events.NORMAL : Events.WARNING,
          status.phase.value(),
          status.phase == READY ? "repository " + status.url + " is ready" : status.message);
    }
    if (refused != null && !refused.equals(oldMessage)) {
      pass.event(Events.WARNING, "CreationParameterChanged", refused);
    }
    return next;
  }
}
