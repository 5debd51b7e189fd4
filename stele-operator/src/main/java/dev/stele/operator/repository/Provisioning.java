package dev.stele.operator.repository;

import dev.stele.blob.BlobStore;
import dev.stele.k8s.api.AccessMode;
import dev.stele.k8s.api.BackupStorageLocation;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.BackupStorageLocationRepositorySpec;
import dev.stele.k8s.api.BackupStorageLocationRepositoryStatus;
import dev.stele.k8s.api.BackupStorageLocationStatus;
import dev.stele.k8s.api.InvalidResourceException;
import dev.stele.k8s.api.LocationPhase;
import dev.stele.operator.kube.Events;
import dev.stele.operator.kube.Settings;
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
import java.io.IOException;

/**
 * How a {@code BackupStorageLocationRepository} gets its repository: it waits for its location to
 * be Available, opens what is at its path with the password from its Secret, or creates a
 * repository there when nothing is, never over anything else. Kept open for the process through
 * {@link Settings#repositories()}.
 */
final class Provisioning {
  private final KubernetesClient client;
  private final Settings settings;
  private final Events events;

  Provisioning(KubernetesClient client, Settings settings, Events events) {
    this.client = client;
    this.settings = settings;
    this.events = events;
  }

  /** A repository opened or created, where it is, and whether backups may write to it. */
  record Provisioned(Repository repo, String url, boolean writable) {}

  /**
   * The repository of {@code bslr}, kept open for the process: adopted when one is at its path,
   * created there when nothing is and its location is ReadWrite; NotReady (with what to change)
   * otherwise.
   */
  Provisioned provision(
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
