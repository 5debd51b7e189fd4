package dev.stele.operator.repository;

import dev.stele.k8s.api.BackupStorageLocation;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.BackupStorageLocationRepositoryStatus;
import dev.stele.k8s.api.BackupStorageLocationSpec;
import dev.stele.k8s.api.InvalidResourceException;
import dev.stele.k8s.api.LocationPhase;
import dev.stele.k8s.api.RepositoryPhase;
import dev.stele.k8s.api.SteleApi;
import dev.stele.operator.kube.Settings;
import dev.stele.operator.location.Places;
import dev.stele.operator.store.OpenRepositories;
import dev.stele.operator.store.OpenRepositories.Dependencies;
import dev.stele.operator.store.Place;
import dev.stele.repo.Repository;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.util.HashSet;
import java.util.Set;

/**
 * Finds the repository a Backup, Restore or pod volume request names, and opens it with the
 * password from its Secret. Shared by every reconciler that reads or writes snapshots.
 */
public final class Repositories {
  private final KubernetesClient client;
  private final Settings settings;

  public Repositories(KubernetesClient client, Settings settings) {
    this.client = client;
    this.settings = settings;
  }

  /** The repository called {@code name} in {@code namespace}. */
  public BackupStorageLocationRepository named(String namespace, String name)
      throws InvalidResourceException {
    var r =
        client
            .resources(BackupStorageLocationRepository.class)
            .inNamespace(namespace)
            .withName(name)
            .get();
    if (r == null) {
      throw new InvalidResourceException(
          "BackupStorageLocationRepository " + name + " does not exist in " + namespace);
    }
    return r;
  }

  /**
   * {@code repository} if given (checked to live in {@code location} when that is given too), else
   * the default repository of {@code location} (or of the location named {@code default}).
   */
  public BackupStorageLocationRepository resolve(
      String namespace, String repository, String location) throws InvalidResourceException {
    if (repository != null && !repository.isBlank()) {
      var r = named(namespace, repository);
      if (location != null
          && r.getSpec() != null
          && !location.equals(r.getSpec().backupStorageLocation)) {
        throw new InvalidResourceException(
            "repository "
                + repository
                + " lives in location "
                + r.getSpec().backupStorageLocation
                + ", not "
                + location);
      }
      return r;
    }
    String bsl = location == null || location.isBlank() ? "default" : location;
    var candidates =
        client
            .resources(BackupStorageLocationRepository.class)
            .inNamespace(namespace)
            .withLabel(SteleApi.DEFAULT_REPOSITORY_LABEL)
            .list()
            .getItems()
            .stream()
            .filter(r -> r.getSpec() != null && bsl.equals(r.getSpec().backupStorageLocation))
            .toList();
    if (candidates.isEmpty()) {
      throw new InvalidResourceException(noDefaultRepository(namespace, bsl));
    }
    return candidates.get(0);
  }

  /**
   * Why location {@code bsl} has no default repository: it does not exist, it is not Available (the
   * repository is created once it is), or it was told not to make one.
   */
  private String noDefaultRepository(String namespace, String bsl) {
    BackupStorageLocation location =
        client.resources(BackupStorageLocation.class).inNamespace(namespace).withName(bsl).get();
    if (location == null) {
      return "BackupStorageLocation "
          + bsl
          + " does not exist in "
          + namespace
          + ": create it, or name an existing one in spec.storageLocation";
    }
    var status = location.getStatus();
    if (status == null || status.phase != LocationPhase.AVAILABLE) {
      return "BackupStorageLocation "
          + bsl
          + " is "
          + (status == null || status.phase == null ? "not validated yet" : status.phase.value())
          + (status == null || status.message == null || status.message.isBlank()
              ? ""
              : ": " + status.message);
    }
    return "BackupStorageLocation "
        + bsl
        + " has no default repository in "
        + namespace
        + " (createDefaultRepository: false): name one in spec.repository";
  }

  /** The location {@code bslr} names, or null if there is none. */
  public BackupStorageLocation location(BackupStorageLocationRepository bslr) {
    return location(client, bslr);
  }

  static BackupStorageLocation location(
      KubernetesClient client, BackupStorageLocationRepository bslr) {
    String name = bslr.getSpec() == null ? null : bslr.getSpec().backupStorageLocation;
    return name == null || name.isBlank()
        ? null
        : client
            .resources(BackupStorageLocation.class)
            .inNamespace(bslr.getMetadata().getNamespace())
            .withName(name)
            .get();
  }

  /**
   * The Secret key holding the repository's password, for a pod that mounts it (the repository
   * server's): which Secret, never its content.
   */
  public static SecretKeySelector passwordSecret(BackupStorageLocationRepository bslr) {
    return Passwords.ref(bslr);
  }

  /** Why the repository cannot be used yet, or null when it is Ready. */
  public static String notReady(BackupStorageLocationRepository bslr) {
    BackupStorageLocationRepositoryStatus rs = bslr.getStatus();
    if (rs != null && rs.phase == RepositoryPhase.READY) {
      return null;
    }
    return "waiting for repository "
        + bslr.getMetadata().getName()
        + " to be Ready"
        + (rs == null || rs.message == null || rs.message.isEmpty()
            ? ""
            : " (" + rs.phase + ": " + rs.message + ")");
  }

  /**
   * A session on the repository, checked to be the one its resource recorded: opened once per
   * process and kept open ({@link OpenRepositories}); close the session after use.
   */
  public Repository open(BackupStorageLocationRepository bslr)
      throws IOException, InvalidResourceException {
    String ns = bslr.getMetadata().getNamespace();
    BackupStorageLocation bsl = location(client, bslr);
    if (bsl == null) {
      throw new InvalidResourceException(
          "BackupStorageLocation " + bslr.getSpec().backupStorageLocation + " does not exist");
    }
    String recorded = bslr.getStatus() == null ? null : bslr.getStatus().repositoryID;
    return settings
        .repositories()
        .open(
            client,
            ns,
            bslr.getMetadata().getName(),
            dependencies(client, bslr, bsl),
            recorded,
            () -> openNew(bslr, bsl, recorded));
  }

  private Repository openNew(
      BackupStorageLocationRepository bslr, BackupStorageLocation bsl, String recorded)
      throws IOException, InvalidResourceException {
    Place place = Places.resolve(client, bsl);
    Passwords passwords = new Passwords(client, bslr);
    String password = passwords.read();
    if (password == null) {
      throw new InvalidResourceException(passwords.describe() + " does not exist");
    }
    var store = settings.stores().open(place, place.repositoryPath(bslr.getMetadata().getName()));
    Repository repo;
    try {
      repo = Repository.open(store, password.toCharArray(), settings.clock());
    } catch (IOException | RuntimeException e) {
      store.close();
      throw e;
    }
    if (recorded != null && !recorded.equals(repo.format().id())) {
      repo.close();
      throw new InvalidResourceException(
          "holds repository " + repo.format().id() + ", not " + recorded + " as recorded");
    }
    return repo;
  }

  /**
   * What an open repository depends on: the Secrets of its password and of its location, the
   * password's key, and the location's name and spec.
   */
  static Dependencies dependencies(
      KubernetesClient client, BackupStorageLocationRepository bslr, BackupStorageLocation bsl) {
    Set<String> secrets = new HashSet<>(Places.secretNames(bsl));
    secrets.add(Passwords.ref(bslr).getName());
    BackupStorageLocationSpec spec = bsl.getSpec();
    String resources =
        Passwords.ref(bslr).getKey()
            + " "
            + bsl.getMetadata().getName()
            + " "
            + client.getKubernetesSerialization().asJson(spec);
    return new Dependencies(secrets, resources);
  }
}
