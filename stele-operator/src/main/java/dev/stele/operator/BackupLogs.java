package dev.stele.operator;

import dev.stele.blob.BlobStore;
import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupSpec;
import dev.stele.k8s.api.BackupStatus;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.InvalidResourceException;
import dev.stele.operator.backup.BackupDocument;
import dev.stele.operator.kube.Settings;
import dev.stele.operator.repository.Repositories;
import dev.stele.operator.store.DefaultStoreFactory;
import dev.stele.operator.store.OpenRepositories;
import dev.stele.operator.store.Place;
import dev.stele.operator.store.StoreFactory;
import dev.stele.repo.Repository;
import dev.stele.s3.BucketConfig;
import dev.stele.snapshot.Node;
import dev.stele.snapshot.SnapshotBrowser;
import dev.stele.snapshot.SnapshotCatalog;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;

/**
 * A Backup's log ({@code backup.log} at the root of its snapshot), read from outside the cluster
 * the way the operator reads it: the location and repository resources and the password Secret
 * through the API, the bucket directly from this machine. The log lives in the repository, not in
 * the cluster.
 */
public final class BackupLogs {
  private BackupLogs() {}

  /**
   * Copies the log of {@code backup}, which records a snapshot, to {@code out}.
   *
   * @throws FileNotFoundException if the snapshot holds no log, or the repository is in a directory
   *     mounted into the operator that this machine lacks (the message says which)
   * @throws InvalidResourceException if the backup's repository or location cannot be used
   */
  public static void copy(
      KubernetesClient client, Backup backup, String snapshotId, Clock clock, OutputStream out)
      throws IOException, InvalidResourceException {
    String namespace = backup.getMetadata().getNamespace();
    BackupSpec spec = backup.getSpec() == null ? new BackupSpec() : backup.getSpec();
    BackupStatus s = backup.getStatus() == null ? new BackupStatus() : backup.getStatus();
    // One command opens one repository: nothing to keep open, no Secrets to watch.
    Settings settings =
        new Settings(clock, new LocalStores(clock), null).withRepositories(OpenRepositories.none());
    Repositories repositories = new Repositories(client, settings);
    BackupStorageLocationRepository bslr =
        s.repository != null
            ? repositories.named(namespace, s.repository)
            : repositories.resolve(namespace, spec.repository, spec.storageLocation);
    try (Repository repo = repositories.open(bslr)) {
      SnapshotCatalog.Entry snapshot = new SnapshotCatalog(repo).resolve(snapshotId);
      SnapshotBrowser browser = new SnapshotBrowser(repo);
      Node log;
      try {
        log = browser.find(snapshot.manifest(), "/" + BackupDocument.LOG);
      } catch (NoSuchFileException e) {
        throw new FileNotFoundException(
            "snapshot "
                + snapshot.id().shortHex()
                + " of backup "
                + backup.getMetadata().getName()
                + " holds no log");
      }
      browser.cat(log, out);
    }
  }

  /**
   * The operator's stores, opened from this machine. A filesystem location is a directory mounted
   * into the operator; when it is not here too, that is said instead of "not a repository".
   */
  private static final class LocalStores implements StoreFactory {
    private final StoreFactory stores;

    LocalStores(Clock clock) {
      this.stores = new DefaultStoreFactory(clock);
    }

    @Override
    public BucketConfig inspect(Place place) throws IOException {
      return stores.inspect(place);
    }

    @Override
    public BlobStore open(Place place, String path) throws IOException {
      if (place.provider().equals("filesystem")) {
        String base = place.config().get("path");
        Path dir = base == null ? null : Path.of(base).resolve(place.bucket()).resolve(path);
        if (dir == null || !Files.isDirectory(dir)) {
          throw new FileNotFoundException(
              "the repository is in a directory mounted into the operator ("
                  + dir
                  + "), which is not on this machine");
        }
      }
      return stores.open(place, path);
    }
  }
}
