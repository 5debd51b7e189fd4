package dev.stele.engine;

import dev.stele.blob.FilesystemBlobStore;
import dev.stele.repo.Repository;
import dev.stele.snapshot.FileBackup;
import dev.stele.testing.RandomTree;
import java.nio.file.Path;
import java.time.Clock;

/**
 * The process {@link CrashTest} kills: backs up a new random tree in a loop into a filesystem
 * repository and prints {@code <snapshot id> <source path>} for each snapshot once it exists.
 *
 * <p>Arguments: repository directory, directory for the sources, first seed.
 */
public final class BackupLoop {
  private BackupLoop() {}

  public static void main(String[] args) throws Exception {
    Clock clock = Clock.systemUTC();
    Path sources = Path.of(args[1]);
    Repository repo =
        TestRepositories.open(new FilesystemBlobStore(Path.of(args[0]), clock), clock);
    for (int seed = Integer.parseInt(args[2]); ; seed++) {
      Path source =
          new RandomTree(seed)
              .files(30)
              .maxFileSize(256 << 10)
              .writeTo(sources.resolve("s" + seed));
      FileBackup.Result result = TestRepositories.backup(repo, source);
      System.out.println(result.id().hex() + " " + source);
      System.out.flush();
    }
  }
}
