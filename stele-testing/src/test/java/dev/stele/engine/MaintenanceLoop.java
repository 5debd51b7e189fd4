package dev.stele.engine;

import dev.stele.blob.FilesystemBlobStore;
import dev.stele.maintenance.Maintenance;
import dev.stele.repo.Repository;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.testing.RandomTree;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

/**
 * The process {@link MaintenanceCrashTest} kills: in a loop, backs up a new tree plus half the
 * files of the previous one, forgets all but the newest two snapshots and runs maintenance, which
 * in a repository with zero windows marks, rewrites and sweeps on every run. Prints a line after
 * each maintenance run.
 *
 * <p>Arguments: repository directory, directory for the sources, first seed.
 */
public final class MaintenanceLoop {
  private MaintenanceLoop() {}

  public static void main(String[] args) throws Exception {
    Clock clock = Clock.systemUTC();
    Path sources = Path.of(args[1]);
    Repository repo =
        TestRepositories.open(new FilesystemBlobStore(Path.of(args[0]), clock), clock);
    SnapshotCatalog catalog = new SnapshotCatalog(repo);
    for (int seed = Integer.parseInt(args[2]); ; seed++) {
      Path source = sources.resolve("s" + seed);
      new RandomTree(seed).files(20).maxFileSize(128 << 10).writeTo(source.resolve("new"));
      MaintenanceCrashTest.halfOf(
          new RandomTree(seed - 1).files(20).maxFileSize(128 << 10), source.resolve("old"));
      TestRepositories.backup(repo, source);
      List<SnapshotCatalog.Entry> live = catalog.list();
      for (SnapshotCatalog.Entry e : live.subList(0, Math.max(0, live.size() - 2))) {
        catalog.forget(e.id(), "test");
      }
      Maintenance.Result r = new Maintenance(repo).run(false);
      System.out.println("maintained: " + r.packsMarked() + " marked, " + r.deleted() + " deleted");
      System.out.flush();
    }
  }
}
