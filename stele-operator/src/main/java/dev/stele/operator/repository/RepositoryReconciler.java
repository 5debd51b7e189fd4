package dev.stele.operator.repository;

import static dev.stele.k8s.api.RepositoryPhase.NOT_READY;
import static dev.stele.k8s.api.RepositoryPhase.READY;

import dev.stele.blob.BlobStore;
import dev.stele.k8s.api.AccessMode;
import dev.stele.k8s.api.BackupStorageLocation;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.BackupStorageLocationRepositorySpec;
import dev.stele.k8s.api.BackupStorageLocationRepositoryStatus;
import dev.stele.k8s.api.BackupStorageLocationStatus;
import dev.stele.k8s.api.InvalidResourceException;
import dev.stele.k8s.api.LocationPhase;
import dev.stele.k8s.api.RepositoryPhase;
import dev.stele.operator.kube.Conditions;
import dev.stele.operator.kube.Events;
import dev.stele.operator.kube.OperatorMetrics;
import dev.stele.operator.kube.Pass;
import dev.stele.operator.kube.PhasedReconciler;
import dev.stele.operator.kube.Settings;
import dev.stele.operator.kube.Stopping;
import dev.stele.operator.location.LocationReconciler;
import dev.stele.operator.location.Lock;
import dev.stele.operator.location.Places;
import dev.stele.operator.store.Place;
import dev.stele.repo.NotARepositoryException;
import dev.stele.repo.Repository;
import dev.stele.repo.RepositoryFormat;
import dev.stele.repo.RepositoryInit;
import dev.stele.repo.UnsupportedVersionException;
import dev.stele.repo.WrongPasswordException;
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

  public RepositoryReconciler(KubernetesClient client, Settings settings, OperatorMetrics metrics) {
    this(client, settings, metrics, new Events(client, settings.clock()));
  }

  private RepositoryReconciler(
      KubernetesClient client, Settings settings, OperatorMetrics metrics, Events events) {
    super(client, events, BackupStorageLocationRepositoryStatus::new);
    this.settings = settings;
    this.events = events;
    this.metrics = metrics;
  }

  /** Index of the primary cache: a repository under the key {@code <namespace>/<location>}. */
  static final String BY_LOCATION = "by-location";

  /**
   * Watches locations too: a change of a location (its phase, above all) reconciles every
   * repository that names it at once, instead of at the next recheck.
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
    return List.of(new InformerEventSource<>(config, context));
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
      Provisioned p = provision(bslr, status);
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
    } catch (NotReadyException e) {
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

  private record Provisioned(Repository repo, String url, boolean writable) {}

  private Provisioned provision(
      BackupStorageLocationRepository bslr, BackupStorageLocationRepositoryStatus status)
      throws NotReadyException, IOException {
    BackupStorageLocationRepositorySpec spec = bslr.getSpec();
    if (spec == null
        || spec.backupStorageLocation == null
        || spec.backupStorageLocation.isBlank()) {
      throw new NotReadyException("spec.backupStorageLocation is required");
    }
    String ns = bslr.getMetadata().getNamespace();
    String name = bslr.getMetadata().getName();
    BackupStorageLocation bsl = Repositories.location(client, bslr);
    if (bsl == null) {
      throw new NotReadyException(
          "BackupStorageLocation " + spec.backupStorageLocation + " does not exist in " + ns);
    }
    BackupStorageLocationStatus located = bsl.getStatus();
    if (located == null || located.phase != LocationPhase.AVAILABLE) {
      throw new NotReadyException(
          "BackupStorageLocation "
              + spec.backupStorageLocation
              + " is "
              + (located == null || located.phase == null
                  ? "not validated yet"
                  : located.phase + ": " + located.message));
    }
    Place place;
    try {
      place = Places.resolve(client, bsl);
    } catch (InvalidResourceException e) {
      throw new NotReadyException(e.getMessage());
    }
    boolean writable = bsl.getSpec().access() != AccessMode.READ_ONLY;
    String path = place.repositoryPath(name);
    String url = place.url(path);
    Place resolved = place;
    Repository repo =
        settings
            .repositories()
            .open(
                client,
                ns,
                name,
                Repositories.dependencies(client, bslr, bsl),
                status.repositoryID,
                () -> openOrCreate(bslr, bsl, resolved, path, url, writable, status));
    return new Provisioned(repo, url, writable);
  }

  /** Opens the repository at {@code path}, or creates it there if nothing is there yet. */
  private Repository openOrCreate(
      BackupStorageLocationRepository bslr,
      BackupStorageLocation bsl,
      Place place,
      String path,
      String url,
      boolean writable,
      BackupStorageLocationRepositoryStatus status)
      throws NotReadyException, IOException {
    BackupStorageLocationRepositorySpec spec = bslr.getSpec();
    Passwords passwords = new Passwords(client, bslr);
    String password;
    try {
      password = passwords.read();
    } catch (InvalidResourceException e) {
      throw new NotReadyException(e.getMessage());
    }
    BlobStore store = settings.stores().open(place, path);
    try {
      boolean formatted = !store.list(RepositoryFormat.BLOB).isEmpty();
      if (!formatted && !store.list("").isEmpty()) {
        throw new NotReadyException(
            url
                + " holds data that is not a Stele repository (no "
                + RepositoryFormat.BLOB
                + "): choose another name for this resource, or empty that path");
      }
      Repository repo;
      if (formatted) {
        if (password == null) {
          throw new NotReadyException(
              "a repository exists at "
                  + url
                  + " but "
                  + passwords.describe()
                  + " does not: recreate it with the repository's password");
        }
        repo = open(store, password, url, passwords);
        if (status.repositoryID != null && !status.repositoryID.equals(repo.format().id())) {
          repo.close();
          throw new NotReadyException(
              "the repository at "
                  + url
                  + " is "
                  + repo.format().id()
                  + ", not "
                  + status.repositoryID
                  + " as recorded: it was replaced behind the operator's back");
        }
        if (status.repositoryID == null) {
          events.record(bslr, Events.NORMAL, "Adopted", "adopted the repository at " + url);
        }
      } else {
        if (status.repositoryID != null) {
          throw new NotReadyException(
              "the repository "
                  + status.repositoryID
                  + " recorded at "
                  + url
                  + " is gone: nothing is there any more; the operator will not create a new one"
                  + " in its place (delete this resource's status.repositoryID to allow it)");
        }
        if (!writable) {
          throw new NotReadyException(
              "BackupStorageLocation "
                  + bsl.getMetadata().getName()
                  + " is ReadOnly and there is no repository at "
                  + url
                  + ": the operator creates repositories only in ReadWrite locations");
        }
        if (password == null) {
          password = passwords.generate();
        }
        Lock lock = Lock.parse(bsl.getStatus().lock);
        RepositoryInit init =
            RepositoryInit.defaults(settings.clock()).withRetention(lock.mode(), lock.minimum());
        if (spec.compressionLevel != null) {
          init = init.withCompressionLevel(spec.compressionLevel);
        }
        if (spec.packSizeMiB != null) {
          init = init.withPackSize(spec.packSizeMiB << 20);
        }
        if (settings.kdf() != null) {
          init = init.withKdf(settings.kdf().get());
        }
        repo = Repository.init(store, password.toCharArray(), init);
        events.record(
            bslr,
            Events.NORMAL,
            "Initialized",
            "created repository " + repo.format().id() + " at " + url);
      }
      return repo;
    } catch (NotReadyException | IOException | RuntimeException e) {
      store.close();
      throw e;
    }
  }

  private Repository open(BlobStore store, String password, String url, Passwords passwords)
      throws NotReadyException, IOException {
    try {
      return Repository.open(store, password.toCharArray(), settings.clock());
    } catch (WrongPasswordException e) {
      throw new NotReadyException(
          "the password in "
              + passwords.describe()
              + " does not open the repository at "
              + url
              + ": put the repository's password in that Secret");
    } catch (NotARepositoryException e) {
      throw new NotReadyException(
          url
              + " holds data that is not a Stele repository ("
              + e.getMessage()
              + "): choose another name for this resource, or empty that path");
    } catch (UnsupportedVersionException e) {
      throw new NotReadyException(
          "the repository at " + url + " needs a newer Stele: " + e.getMessage());
    }
  }

  /** The resource cannot be Ready; the message says why and what to change. */
  static final class NotReadyException extends Exception {
    private static final long serialVersionUID = 1L;

    NotReadyException(String message) {
      super(message);
    }
  }
}
