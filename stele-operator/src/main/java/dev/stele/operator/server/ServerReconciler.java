package dev.stele.operator.server;

import static dev.stele.k8s.api.ServerPhase.FAILED;
import static dev.stele.k8s.api.ServerPhase.NOT_READY;
import static dev.stele.k8s.api.ServerPhase.READY;

import dev.stele.k8s.api.BackupStorageLocation;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.BackupStorageLocationServer;
import dev.stele.k8s.api.BackupStorageLocationServerSpec;
import dev.stele.k8s.api.BackupStorageLocationServerStatus;
import dev.stele.k8s.api.InvalidResourceException;
import dev.stele.k8s.api.Provider;
import dev.stele.k8s.api.ServerPhase;
import dev.stele.operator.kube.Conditions;
import dev.stele.operator.kube.Events;
import dev.stele.operator.kube.Pass;
import dev.stele.operator.kube.PhasedReconciler;
import dev.stele.operator.kube.SecretTriggers;
import dev.stele.operator.kube.Settings;
import dev.stele.operator.location.LocationReconciler;
import dev.stele.operator.repository.Repositories;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.Mappers;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * Reconciles a {@link BackupStorageLocationServer}: checks what it names (its repository Ready, the
 * users Secret, the certificate), then applies, with server-side apply, the server's ServiceAccount
 * and Role ({@link ServerAccount}), ConfigMap, Deployment and Service ({@link Workload}), all owned
 * by it. Ready once the Deployment reports an available replica; NotReady, with what is missing,
 * while something it needs is not there yet; Failed while the spec itself cannot be served. An
 * Event on every phase change and every new refusal.
 *
 * <p>A change of the users Secret counts the users again at once ({@link SecretTriggers}); the pods
 * read the new files from their mounted Secret, so the Deployment, and so the pods, stay as they
 * are.
 */
@ControllerConfiguration(name = "backupstoragelocationserver")
public final class ServerReconciler
    extends PhasedReconciler<
        BackupStorageLocationServer, BackupStorageLocationServerStatus, ServerPhase> {
  /** The field manager of everything this reconciler applies. */
  static final String MANAGER = "stele-operator";

  /** Index of the primary cache: a server under {@code <namespace>/<Secret>}, for each it names. */
  static final String BY_SECRET = "by-secret";

  /** Index of the primary cache: a server under {@code <namespace>/<repository>}. */
  static final String BY_REPOSITORY = "by-repository";

  private final Settings settings;
  private final Repositories repositories;
  private final TlsSecrets tls;

  public ServerReconciler(KubernetesClient client, Settings settings) {
    this(client, settings, new Events(client, settings.clock()));
  }

  private ServerReconciler(KubernetesClient client, Settings settings, Events events) {
    super(client, events, BackupStorageLocationServerStatus::new);
    this.settings = settings;
    this.repositories = new Repositories(client, settings);
    this.tls = new TlsSecrets(client, settings.clock());
  }

  /**
   * Watches the Deployments it owns (Ready when one becomes available), the repositories (a server
   * waiting for its repository starts once it is Ready) and the Secrets servers name (users, TLS).
   */
  @Override
  public List<EventSource<?, BackupStorageLocationServer>> prepareEventSources(
      EventSourceContext<BackupStorageLocationServer> context) {
    var deployments =
        InformerEventSourceConfiguration.from(Deployment.class, BackupStorageLocationServer.class)
            .withName("deployments")
            .withNamespacesInheritedFromController()
            .withSecondaryToPrimaryMapper(
                Mappers.fromOwnerReferences(BackupStorageLocationServer.class))
            .build();
    context
        .getPrimaryCache()
        .addIndexer(
            BY_REPOSITORY,
            s ->
                s.getSpec() == null || s.getSpec().backupStorageLocationRepositoryRef == null
                    ? List.of()
                    : List.of(key(s, s.getSpec().backupStorageLocationRepositoryRef)));
    var bslrs =
        InformerEventSourceConfiguration.from(
                BackupStorageLocationRepository.class, BackupStorageLocationServer.class)
            .withName("repositories")
            .withNamespacesInheritedFromController()
            .withSecondaryToPrimaryMapper(
                (BackupStorageLocationRepository r) ->
                    context
                        .getPrimaryCache()
                        .byIndex(BY_REPOSITORY, key(r, r.getMetadata().getName()))
                        .stream()
                        .map(ResourceID::fromResource)
                        .collect(Collectors.toSet()))
            .build();
    return List.of(
        new InformerEventSource<>(deployments, context),
        new InformerEventSource<>(bslrs, context),
        SecretTriggers.of(
            context,
            BackupStorageLocationServer.class,
            BY_SECRET,
            ServerReconciler::secrets,
            settings.repositories()));
  }

  /** The Secrets a server names: its users and its certificate (given or generated). */
  static List<String> secrets(BackupStorageLocationServer bsls) {
    BackupStorageLocationServerSpec spec = bsls.getSpec();
    if (spec == null) {
      return List.of();
    }
    String users = spec.userSecretRef == null ? null : spec.userSecretRef.getName();
    return Stream.of(users, TlsSecrets.name(bsls)).filter(Objects::nonNull).toList();
  }

  @Override
  protected @Nullable Duration advance(
      Pass<BackupStorageLocationServer, BackupStorageLocationServerStatus> pass,
      @Nullable ServerPhase before) {
    BackupStorageLocationServer bsls = pass.resource();
    BackupStorageLocationServerStatus status = pass.status();
    String oldMessage = status.message;
    try {
      serve(pass, bsls, status);
    } catch (Refused e) {
      status.phase = e.phase;
      status.message = Objects.requireNonNullElse(e.getMessage(), "");
    } catch (InvalidResourceException e) {
      status.phase = NOT_READY;
      status.message = Objects.requireNonNullElse(e.getMessage(), "");
    }
    long generation = LocationReconciler.generation(bsls);
    status.observedGeneration = generation;
    boolean ready = status.phase == READY;
    Conditions.set(
        status.conditions,
        "Ready",
        ready,
        ready ? "Available" : status.phase.value(),
        status.message,
        generation,
        settings.clock().instant());
    pass.write();
    if (before != status.phase || (!ready && !status.message.equals(oldMessage))) {
      pass.event(
          ready ? Events.NORMAL : Events.WARNING,
          status.phase.value(),
          ready ? "serving at " + status.endpoint : status.message);
    }
    return ready ? null : settings.recheck();
  }

  /** Checks what the server needs, applies its objects and reads whether it runs. */
  private void serve(
      Pass<BackupStorageLocationServer, BackupStorageLocationServerStatus> pass,
      BackupStorageLocationServer bsls,
      BackupStorageLocationServerStatus status)
      throws Refused, InvalidResourceException {
    String invalid = SpecCheck.problem(bsls.getSpec());
    if (invalid != null) {
      throw new Refused(FAILED, invalid);
    }
    BackupStorageLocationServerSpec spec = bsls.getSpec();
    Workload workload = new Workload(bsls);
    status.endpoint = workload.endpoint();
    String ns = bsls.getMetadata().getNamespace();
    var users = client.secrets().inNamespace(ns).withName(spec.userSecretRef.getName()).get();
    if (users == null) {
      status.users = null;
      throw new Refused(
          NOT_READY,
          "Secret " + spec.userSecretRef.getName() + " named in spec.userSecretRef does not exist");
    }
    status.users = userCount(users);
    BackupStorageLocationRepository bslr =
        repositories.named(ns, spec.backupStorageLocationRepositoryRef);
    String waiting = Repositories.notReady(bslr);
    if (waiting != null) {
      throw new Refused(NOT_READY, waiting);
    }
    BackupStorageLocation bsl = repositories.location(bslr);
    if (bsl == null || bsl.getSpec() == null) {
      throw new Refused(
          NOT_READY,
          "the location of repository " + bslr.getMetadata().getName() + " does not exist");
    }
    if (Provider.of(bsl.getSpec().provider).orElse(null) != Provider.S3) {
      throw new Refused(
          FAILED,
          "repository "
              + bslr.getMetadata().getName()
              + " is in a "
              + bsl.getSpec().provider
              + " location: a server serves repositories in s3 locations only");
    }
    TlsSecrets.Served cert = tls.served(bsls, workload, pass);
    if (status.tlsFingerprint != null && !status.tlsFingerprint.equals(cert.fingerprint())) {
      // Renewed or rotated: the pods serve the new files without a restart; pinning clients
      // must pin the new fingerprint.
      pass.event(
          Events.NORMAL,
          "CertificateChanged",
          "Secret "
              + cert.secret()
              + " holds a new certificate, fingerprint "
              + cert.fingerprint());
    }
    status.tlsFingerprint = cert.fingerprint();
    new ServerAccount(workload).objects().forEach(this::apply);
    apply(workload.accessConfigMap());
    apply(workload.service());
    Deployment deployment =
        apply(
            workload.deployment(
                settings.image(),
                bslr.getStatus().url,
                bsl.getSpec(),
                Repositories.passwordSecret(bslr),
                cert.secret()));
    Integer available =
        deployment.getStatus() == null ? null : deployment.getStatus().getAvailableReplicas();
    if (available == null || available < 1) {
      throw new Refused(
          NOT_READY,
          "waiting for the server's Deployment "
              + workload.name()
              + " to have an available replica");
    }
    status.phase = READY;
    status.message = "";
  }

  /** The users in the users Secret: its keys, in {@code data} or {@code stringData}. */
  private static int userCount(Secret users) {
    Set<String> keys = new HashSet<>();
    if (users.getData() != null) {
      keys.addAll(users.getData().keySet());
    }
    if (users.getStringData() != null) {
      keys.addAll(users.getStringData().keySet());
    }
    return keys.size();
  }

  private <T extends HasMetadata> T apply(T object) {
    return client.resource(object).fieldManager(MANAGER).forceConflicts().serverSideApply();
  }

  private static String key(HasMetadata r, String name) {
    return r.getMetadata().getNamespace() + "/" + name;
  }

  /** Why a pass stops short of Ready, and in which phase. */
  static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;
    final transient ServerPhase phase;

    Refused(ServerPhase phase, String message) {
      super(message);
      this.phase = phase;
    }
  }
}
