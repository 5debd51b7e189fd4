package dev.stele.operator.repository;

import static dev.stele.k8s.api.BackupStorageLocationRepositoryStatus.NOT_READY;
import static dev.stele.k8s.api.BackupStorageLocationRepositoryStatus.READY;

import dev.stele.blob.BlobInfo;
import dev.stele.blob.BlobStore;
import dev.stele.k8s.api.BackupStorageLocation;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.BackupStorageLocationRepositorySpec;
import dev.stele.k8s.api.BackupStorageLocationRepositoryStatus;
import dev.stele.k8s.api.BackupStorageLocationStatus;
import dev.stele.operator.kube.Conditions;
import dev.stele.operator.kube.Events;
import dev.stele.operator.kube.InvalidResourceException;
import dev.stele.operator.kube.OperatorMetrics;
import dev.stele.operator.kube.Settings;
import dev.stele.operator.kube.Stopping;
import dev.stele.operator.location.LocationReconciler;
import dev.stele.operator.location.Lock;
import dev.stele.operator.location.Places;
import dev.stele.operator.store.Place;
import dev.stele.repo.BlobKind;
import dev.stele.repo.Id;
import dev.stele.repo.NotARepositoryException;
import dev.stele.repo.Pack;
import dev.stele.repo.Repository;
import dev.stele.repo.RepositoryFormat;
import dev.stele.repo.RepositoryInit;
import dev.stele.repo.UnsupportedVersionException;
import dev.stele.repo.WrongPasswordException;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
    implements Reconciler<BackupStorageLocationRepository>,
        Cleaner<BackupStorageLocationRepository> {

  private static final Logger LOG = LoggerFactory.getLogger(RepositoryReconciler.class);

  private final KubernetesClient client;
  private final Settings settings;
  private final Events events;
  private final OperatorMetrics metrics;

  public RepositoryReconciler(KubernetesClient client, Settings settings, OperatorMetrics metrics) {
    this.client = client;
    this.settings = settings;
    this.events = new Events(client, settings.clock());
    this.metrics = metrics;
  }

  @Override
  public UpdateControl<BackupStorageLocationRepository> reconcile(
      BackupStorageLocationRepository bslr, Context<BackupStorageLocationRepository> context) {
    return UpdateControl.<BackupStorageLocationRepository>noUpdate()
        .rescheduleAfter(reconcile(bslr));
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

  /** One pass; returns when to look again. */
  public Duration reconcile(BackupStorageLocationRepository bslr) {
    Instant now = settings.clock().instant();
    BackupStorageLocationRepositoryStatus old = bslr.getStatus();
    BackupStorageLocationRepositoryStatus status =
        old == null ? new BackupStorageLocationRepositoryStatus() : old;
    String before = status.phase;
    String oldMessage = status.message;
    Duration next = settings.recheck();
    String refused = null;
    try {
      Provisioned p = provision(bslr, status);
      try (Repository repo = p.repo()) {
        RepositoryFormat f = repo.format();
        status.phase = READY;
        status.repositoryID = f.id();
        status.url = p.url();
        status.lock = new Lock(f.retentionMode(), f.minimumRetention()).toString();
        status.compressionLevel = f.compressionLevel();
        status.packSizeMiB = f.packSize() >> 20;
        refused = refusedChanges(bslr.getSpec(), f);
        status.message = refused == null ? "" : refused;
        setReady(bslr, status, now);
        if (p.writable()) {
          next = new RepositoryMaintenance(settings, events, metrics).runIfDue(bslr, repo, status);
        }
        count(repo, status);
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
    if (!READY.equals(status.phase)) {
      setReady(bslr, status, now);
    }
    Conditions.set(
        status.conditions,
        "SpecAccepted",
        refused == null,
        refused == null ? "Accepted" : "CreationParameterChanged",
        refused,
        status.observedGeneration,
        now);
    bslr.setStatus(status);
    metrics.repositoryPhase(bslr, status.phase);
    client.resource(bslr).updateStatus();
    if (!Objects.equals(before, status.phase)) {
      events.record(
          bslr,
          READY.equals(status.phase) ? Events.NORMAL : Events.WARNING,
          status.phase,
          READY.equals(status.phase) ? "repository " + status.url + " is ready" : status.message);
    }
    if (refused != null && !refused.equals(oldMessage)) {
      events.record(bslr, Events.WARNING, "CreationParameterChanged", refused);
    }
    return next;
  }

  /**
   * Counts and sizes from listings (no snapshot is read): snapshots, forgotten ones, packs and
   * their bytes. A failure leaves the last counts; it is not a reason to be NotReady.
   */
  static void count(Repository repo, BackupStorageLocationRepositoryStatus status) {
    try {
      Set<String> forgotten = repo.tombstoned();
      int live = 0;
      int gone = 0;
      for (Id id : repo.list(BlobKind.SNAPSHOT)) {
        if (forgotten.contains(BlobKind.SNAPSHOT.nameOf(id))) {
          gone++;
        } else {
          live++;
        }
      }
      List<BlobInfo> packs = repo.store().list(Pack.PREFIX);
      status.snapshots = live;
      status.forgottenSnapshots = gone;
      status.packs = packs.size();
      status.packBytes = packs.stream().mapToLong(BlobInfo::size).sum();
    } catch (IOException | RuntimeException e) {
      LOG.warn("could not count {}: {}", status.url, e.getMessage());
    }
  }

  private static void setReady(
      BackupStorageLocationRepository bslr,
      BackupStorageLocationRepositoryStatus status,
      Instant now) {
    boolean ready = READY.equals(status.phase);
    Conditions.set(
        status.conditions,
        "Ready",
        ready,
        ready ? "RepositoryOpened" : "NotReady",
        status.message,
        LocationReconciler.generation(bslr),
        now);
  }

  /** When the repository first became Ready, by the Ready condition; null if it never did. */
  static Instant readySince(BackupStorageLocationRepositoryStatus status) {
    for (Condition c : status.conditions) {
      if ("Ready".equals(c.getType()) && "True".equals(c.getStatus())) {
        return Instant.parse(c.getLastTransitionTime());
      }
    }
    return null;
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
    if (located == null || !BackupStorageLocationStatus.AVAILABLE.equals(located.phase)) {
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
    boolean writable = !"ReadOnly".equals(bsl.getSpec().accessMode);
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

  /** Why creation-time parameters in {@code spec} cannot apply to {@code f}; null if they agree. */
  static String refusedChanges(BackupStorageLocationRepositorySpec spec, RepositoryFormat f) {
    StringBuilder b = new StringBuilder();
    if (spec.compressionLevel != null && spec.compressionLevel != f.compressionLevel()) {
      b.append("compressionLevel ")
          .append(spec.compressionLevel)
          .append(" (the repository was created with ")
          .append(f.compressionLevel())
          .append(")");
    }
    if (spec.packSizeMiB != null && spec.packSizeMiB != f.packSize() >> 20) {
      b.append(b.length() > 0 ? ", " : "")
          .append("packSizeMiB ")
          .append(spec.packSizeMiB)
          .append(" (the repository was created with ")
          .append(f.packSize() >> 20)
          .append(")");
    }
    return b.length() == 0
        ? null
        : "refused: "
            + b
            + " — these are fixed when a repository is created; the repository keeps its own";
  }

  /** The resource cannot be Ready; the message says why and what to change. */
  static final class NotReadyException extends Exception {
    private static final long serialVersionUID = 1L;

    NotReadyException(String message) {
      super(message);
    }
  }
}
