package dev.stele.operator.location;

import dev.stele.k8s.api.BackupStorageLocation;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.BackupStorageLocationRepositorySpec;
import dev.stele.k8s.api.BackupStorageLocationSpec;
import dev.stele.k8s.api.BackupStorageLocationStatus;
import dev.stele.k8s.api.Durations;
import dev.stele.k8s.api.InvalidResourceException;
import dev.stele.k8s.api.LocationPhase;
import dev.stele.k8s.api.Provider;
import dev.stele.k8s.api.SteleApi;
import dev.stele.operator.kube.Conditions;
import dev.stele.operator.kube.Events;
import dev.stele.operator.kube.OperatorMetrics;
import dev.stele.operator.kube.Pass;
import dev.stele.operator.kube.PhasedReconciler;
import dev.stele.operator.kube.SecretTriggers;
import dev.stele.operator.kube.Settings;
import dev.stele.operator.store.Place;
import dev.stele.s3.BucketConfig;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Reconciles a {@link BackupStorageLocation}: every {@code validationFrequency}, and at once when
 * its spec or a Secret it names changes, it reads the bucket's versioning and object lock, decides
 * whether repositories can live there ({@link LocationCheck}), writes that into the status, and
 * creates the location's default repository.
 */
@ControllerConfiguration(name = "backupstoragelocation")
public final class LocationReconciler
    extends PhasedReconciler<BackupStorageLocation, BackupStorageLocationStatus, LocationPhase> {
  static final Duration DEFAULT_FREQUENCY = Duration.ofMinutes(1);

  private final Settings settings;
  private final OperatorMetrics metrics;

  public LocationReconciler(KubernetesClient client, Settings settings, OperatorMetrics metrics) {
    super(client, new Events(client, settings.clock()), BackupStorageLocationStatus::new);
    this.settings = settings;
    this.metrics = metrics;
  }

  /** Index of the primary cache: a location under each {@code <namespace>/<Secret>} it names. */
  static final String BY_SECRET = "by-secret";

  /**
   * What each location (by uid) was last validated with in this process: the place its spec and
   * Secrets gave, or why they gave none. A pass whose inputs differ validates at once, so a
   * corrected Secret takes effect without waiting for {@code validationFrequency}.
   */
  private final Map<String, Inputs> validatedWith = new ConcurrentHashMap<>();

  /**
   * What a validation reads besides the bucket.
   *
   * @param place where the location is, its Secrets read; null if they could not be
   * @param problem why there is no place, or null
   */
  private record Inputs(Place place, String problem) {
    static Inputs of(KubernetesClient client, BackupStorageLocation bsl) {
      try {
        return new Inputs(Places.resolve(client, bsl), null);
      } catch (InvalidResourceException | IllegalArgumentException e) {
        return new Inputs(null, e.getMessage());
      }
    }
  }

  /**
   * Watches the Secrets locations name (credentials, CA certificate): a change validates every
   * location naming it at once ({@link SecretTriggers}).
   */
  @Override
  public List<EventSource<?, BackupStorageLocation>> prepareEventSources(
      EventSourceContext<BackupStorageLocation> context) {
    return List.of(
        SecretTriggers.of(
            context,
            BackupStorageLocation.class,
            BY_SECRET,
            Places::secretNames,
            settings.repositories()));
  }

  /** The cached copy is enough: a pass replaces the whole status with what the bucket says. */
  @Override
  protected BackupStorageLocation observe(BackupStorageLocation cached) {
    return cached;
  }

  /** Checks the bucket when due, records what it found, and returns when to check again. */
  @Override
  protected Duration advance(
      Pass<BackupStorageLocation, BackupStorageLocationStatus> pass, LocationPhase before) {
    BackupStorageLocation bsl = pass.resource();
    Instant now = settings.clock().instant();
    BackupStorageLocationStatus old = bsl.getStatus();
    BackupStorageLocationSpec spec = bsl.getSpec();
    Duration frequency;
    try {
      frequency =
          Durations.parse(spec == null ? null : spec.validationFrequency, DEFAULT_FREQUENCY);
    } catch (IllegalArgumentException e) {
      frequency = DEFAULT_FREQUENCY;
    }
    long generation = generation(bsl);
    Inputs inputs = Inputs.of(client, bsl);
    String uid = bsl.getMetadata().getUid();
    if (old != null
        && old.lastValidationTime != null
        && Objects.equals(old.observedGeneration, generation)
        && inputs.equals(validatedWith.get(uid))) {
      Instant next = Instant.parse(old.lastValidationTime).plus(frequency);
      if (now.isBefore(next)) {
        return Duration.between(now, next);
      }
    }
    Validated validated = validate(bsl, inputs, frequency);
    validatedWith.put(uid, inputs);
    BackupStorageLocationStatus status = validated.status();
    status.lastValidationTime = now.toString();
    status.observedGeneration = generation;
    status.conditions = old == null ? status.conditions : old.conditions;
    boolean available = status.phase == LocationPhase.AVAILABLE;
    Conditions.set(
        status.conditions,
        "Available",
        available,
        available ? "Validated" : "ValidationFailed",
        status.message,
        generation,
        now);
    LocationCheck.Guard guard = validated.guard();
    Condition wasProtected = condition(old, PROTECTED);
    if (guard != null) {
      Conditions.set(
          status.conditions,
          PROTECTED,
          guard.ok(),
          guard.reason(),
          guard.message(),
          generation,
          now);
    }
    bsl.setStatus(status);
    // The metric first: whoever sees the new status can also scrape it.
    metrics.locationPhase(bsl, status.phase);
    pass.write();
    if (status.phase != before) {
      pass.event(
          available ? Events.NORMAL : Events.WARNING,
          status.phase.value(),
          available
              ? "bucket validated: " + status.versioning + " versioning, lock " + status.lock
              : status.message);
    }
    if (guard != null
        && guard.warn()
        && (wasProtected == null || !guard.reason().equals(wasProtected.getReason()))) {
      pass.event(Events.WARNING, guard.reason(), guard.message());
    }
    if (available && !Boolean.FALSE.equals(spec.createDefaultRepository)) {
      ensureDefaultRepository(pass);
    }
    return frequency;
  }

  /** The condition type saying whether the bucket keeps the backups from deletion. */
  static final String PROTECTED = "Protected";

  /** What a validation found: the status, and when Available the Protected condition. */
  private record Validated(
      BackupStorageLocationStatus status, LocationCheck.@Nullable Guard guard) {}

  private static @Nullable Condition condition(
      @Nullable BackupStorageLocationStatus status, String type) {
    return status == null || status.conditions == null
        ? null
        : status.conditions.stream().filter(c -> type.equals(c.getType())).findFirst().orElse(null);
  }

  private Validated validate(BackupStorageLocation bsl, Inputs inputs, Duration frequency) {
    BackupStorageLocationStatus status = new BackupStorageLocationStatus();
    LocationCheck.Guard guard = null;
    BackupStorageLocationSpec spec = bsl.getSpec();
    Place place = inputs.place();
    try {
      if (spec != null && spec.validationFrequency != null) {
        Durations.parse(spec.validationFrequency, frequency);
      }
      if (place == null) {
        throw new InvalidResourceException(inputs.problem());
      }
      BucketConfig bucket = settings.stores().inspect(place);
      status.versioning = bucket.versioning();
      status.objectLockEnabled = bucket.objectLock();
      status.defaultRetention = LocationCheck.defaultRule(bucket);
      LocationCheck.Verdict verdict =
          LocationCheck.decide(Provider.of(spec.provider).orElseThrow(), spec.objectLock, bucket);
      if (verdict.ok()) {
        status.phase = LocationPhase.AVAILABLE;
        status.lock = verdict.lock().toString();
        status.protection = LocationCheck.protection(verdict.lock(), bucket);
        status.message = "";
        guard = LocationCheck.guard(verdict, spec.objectLock, bucket);
      } else {
        status.phase = LocationPhase.UNAVAILABLE;
        status.message = verdict.problem();
      }
    } catch (InvalidResourceException | IllegalArgumentException e) {
      status.phase = LocationPhase.UNAVAILABLE;
      status.message = e.getMessage();
    } catch (IOException e) {
      status.phase = LocationPhase.UNAVAILABLE;
      status.message = Diagnosis.of(place, e);
    }
    return new Validated(status, guard);
  }

  private void ensureDefaultRepository(
      Pass<BackupStorageLocation, BackupStorageLocationStatus> pass) {
    BackupStorageLocation bsl = pass.resource();
    String ns = bsl.getMetadata().getNamespace();
    String name = bsl.getMetadata().getName();
    var repos = client.resources(BackupStorageLocationRepository.class).inNamespace(ns);
    BackupStorageLocationRepository existing = repos.withName(name).get();
    if (existing != null) {
      if (existing.getSpec() == null || !name.equals(existing.getSpec().backupStorageLocation)) {
        pass.event(
            Events.WARNING,
            "DefaultRepositoryConflict",
            "BackupStorageLocationRepository "
                + name
                + " exists but does not point at this location; no default repository created");
      }
      return;
    }
    var repo = new BackupStorageLocationRepository();
    repo.setMetadata(
        new ObjectMetaBuilder()
            .withName(name)
            .withNamespace(ns)
            .addToLabels(SteleApi.LOCATION_LABEL, name)
            .addToLabels(SteleApi.DEFAULT_REPOSITORY_LABEL, "true")
            .build());
    repo.setSpec(new BackupStorageLocationRepositorySpec());
    repo.getSpec().backupStorageLocation = name;
    repos.resource(repo).create();
    pass.event(
        Events.NORMAL,
        "DefaultRepositoryCreated",
        "created BackupStorageLocationRepository " + name);
  }

  public static long generation(io.fabric8.kubernetes.api.model.HasMetadata r) {
    Long g = r.getMetadata().getGeneration();
    return g == null ? 0 : g;
  }
}
