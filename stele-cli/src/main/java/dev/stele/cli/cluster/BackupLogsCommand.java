package dev.stele.cli.cluster;

import dev.stele.blob.BlobStore;
import dev.stele.cli.CliEnvironment;
import dev.stele.cli.CliException;
import dev.stele.cli.ExitCode;
import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupSpec;
import dev.stele.k8s.api.BackupStatus;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.RunPhase;
import dev.stele.operator.backup.BackupDocument;
import dev.stele.operator.kube.InvalidResourceException;
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
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code stele backup logs NAME}: the {@code backup.log} at the root of the backup's snapshot. The
 * log lives in the repository, not in the cluster, so this command opens the repository itself,
 * from this machine, the way the operator does: the location and repository resources and the
 * password Secret are read through the API ({@link Repositories}), the bucket is reached directly.
 */
@Command(
    name = "logs",
    description =
        "Print a Backup's log, read from its snapshot in the repository (this machine must reach"
            + " the bucket; reading the password Secret needs get on Secrets).")
final class BackupLogsCommand extends ClusterCommand {
  @Parameters(paramLabel = "NAME", description = "The Backup.")
  String name;

  @Override
  int run() throws Exception {
    Backup backup = require(Backup.class, "backup", name);
    BackupSpec spec = backup.getSpec() == null ? new BackupSpec() : backup.getSpec();
    BackupStatus s = backup.getStatus() == null ? new BackupStatus() : backup.getStatus();
    if (s.snapshotID == null) {
      throw CliException.notFound(noLog(s));
    }
    // One command opens one repository: nothing to keep open, no Secrets to watch.
    Settings settings =
        new Settings(env().clock(), new LocalStores(env()), null)
            .withRepositories(OpenRepositories.none());
    Repositories repositories = new Repositories(client, settings);
    try {
      BackupStorageLocationRepository bslr =
          s.repository != null
              ? repositories.named(namespace, s.repository)
              : repositories.resolve(namespace, spec.repository, spec.storageLocation);
      try (Repository repo = repositories.open(bslr)) {
        SnapshotCatalog.Entry snapshot = new SnapshotCatalog(repo).resolve(s.snapshotID);
        SnapshotBrowser browser = new SnapshotBrowser(repo);
        Node log;
        try {
          log = browser.find(snapshot.manifest(), "/" + BackupDocument.LOG);
        } catch (NoSuchFileException e) {
          throw CliException.notFound(
              "snapshot " + snapshot.id().shortHex() + " of backup " + name + " holds no log");
        }
        out().flush();
        OutputStream stdout = env().stdout();
        browser.cat(log, stdout);
        stdout.flush();
      }
    } catch (InvalidResourceException e) {
      throw new CliException(ExitCode.ERROR, "backup " + name + ": " + e.getMessage());
    }
    return ExitCode.OK;
  }

  private String noLog(BackupStatus s) {
    if (s.phase == RunPhase.FAILED) {
      return "backup "
          + name
          + " failed before its snapshot was written, so the repository holds no log of it"
          + (s.message == null ? "" : " (" + s.message + ")");
    }
    if (PhaseWait.isFinal(s.phase)) {
      return "backup " + name + " records no snapshot (status.snapshotID)";
    }
    return "backup "
        + name
        + " has no log yet: it is "
        + BackupGetCommand.phase(s.phase)
        + ", and its log is written with its snapshot when it finishes";
  }

  /**
   * The operator's stores, opened from this machine. A filesystem location is a directory mounted
   * into the operator; when it is not here too, that is said instead of "not a repository".
   */
  private static final class LocalStores implements StoreFactory {
    private final StoreFactory stores;

    LocalStores(CliEnvironment env) {
      this.stores = new DefaultStoreFactory(env.clock());
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
          throw new CliException(
              ExitCode.NOT_FOUND,
              "the repository is in a directory mounted into the operator ("
                  + dir
                  + "), which is not on this machine");
        }
      }
      return stores.open(place, path);
    }
  }
}
