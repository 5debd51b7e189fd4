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
import dev.stele.operator.restore.RestoreDocument;
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
import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A Backup's repository opened from outside the cluster the way the operator opens it: the location
 * and repository resources and the password Secret through the API, the bucket directly from this
 * machine, read only. The command line reads what lives in the repository and not in the cluster
 * through it: a backup's log and resources, a restore's log and results.
 *
 * <p>Concurrency: one thread; close it when done.
 */
public final class BackupRepository implements AutoCloseable {
  private final Repository repo;

  private BackupRepository(Repository repo) {
    this.repo = repo;
  }

  /**
   * Opens the repository of {@code backup}: its {@code status.repository}, else the spec's
   * repository, else its location's default repository.
   *
   * @throws FileNotFoundException if the repository is in a directory mounted into the operator
   *     that this machine lacks (the message says which)
   * @throws InvalidResourceException if the backup's repository or location cannot be used
   */
  public static BackupRepository open(KubernetesClient client, Backup backup, Clock clock)
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
    return new BackupRepository(repositories.open(bslr));
  }

  /** The file names a backup's snapshot and a restore's results snapshot hold at their root. */
  public static final String BACKUP_LOG = BackupDocument.LOG;

  public static final String RESTORE_LOG = RestoreDocument.LOG;
  public static final String RESTORE_RESULTS = RestoreDocument.FILE;
  public static final String RESOURCES = BackupDocument.RESOURCES;

  /**
   * Copies the file at {@code path} of snapshot {@code snapshotId} to {@code out}.
   *
   * @param what what the snapshot is, for the message ({@code "backup nightly"})
   * @throws FileNotFoundException if the snapshot holds no such file
   */
  public void copy(String snapshotId, String path, String what, OutputStream out)
      throws IOException {
    SnapshotCatalog.Entry snapshot = new SnapshotCatalog(repo).resolve(snapshotId);
    SnapshotBrowser browser = new SnapshotBrowser(repo);
    Node file;
    try {
      file = browser.find(snapshot.manifest(), "/" + path);
    } catch (NoSuchFileException e) {
      throw new FileNotFoundException(
          "snapshot " + snapshot.id().shortHex() + " of " + what + " holds no " + path);
    }
    browser.cat(file, out);
  }

  /** The file at {@code path} of snapshot {@code snapshotId}, whole. */
  public byte[] read(String snapshotId, String path, String what) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    copy(snapshotId, path, what, bytes);
    return bytes.toByteArray();
  }

  /**
   * Every file under directory {@code dir} of snapshot {@code snapshotId}, by path relative to the
   * snapshot's root ({@code resources/apps/deployments/shop/web.json}), in path order; none if the
   * snapshot has no such directory.
   */
  public List<SnapshotBrowser.Entry> files(String snapshotId, String dir) throws IOException {
    SnapshotCatalog.Entry snapshot = new SnapshotCatalog(repo).resolve(snapshotId);
    SnapshotBrowser browser = new SnapshotBrowser(repo);
    SnapshotBrowser.Entry start;
    try {
      start = browser.lookup(snapshot.manifest(), "/" + dir);
    } catch (NoSuchFileException e) {
      return List.of();
    }
    List<SnapshotBrowser.Entry> files = new ArrayList<>();
    for (SnapshotBrowser.Entry e : browser.list(start.node(), start.path(), true)) {
      if (e.node().isFile()) {
        files.add(new SnapshotBrowser.Entry(e.path().substring(1), e.node()));
      }
    }
    files.sort(Comparator.comparing(SnapshotBrowser.Entry::path));
    return files;
  }

  /** Copies a file that {@link #files} listed to {@code out}. */
  public void cat(Node file, OutputStream out) throws IOException {
    new SnapshotBrowser(repo).cat(file, out);
  }

  @Override
  public void close() throws IOException {
    repo.close();
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
