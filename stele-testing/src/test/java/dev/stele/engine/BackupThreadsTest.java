package dev.stele.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.repo.Repository;
import dev.stele.snapshot.FileBackup;
import dev.stele.snapshot.FileBackupListener;
import dev.stele.testing.InMemoryBlobStore;
import dev.stele.testing.MutableClock;
import dev.stele.testing.RandomTree;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A backup walks with the threads it was given and at most two spare walkers, however often its
 * walkers wait for readers and subdirectories: each walker holds buffers and a zstd context of its
 * own, and a pool without a bound started some twenty of them.
 */
class BackupThreadsTest {
  @TempDir Path tmp;

  @Test
  void walkersNeverOutnumberTheThreadsAsked() throws IOException {
    MutableClock clock = new MutableClock();
    Repository repo =
        TestRepositories.init(new InMemoryBlobStore(clock), TestRepositories.small(clock));
    // Many directories, and files of several chunks, which walkers hand to readers and wait for.
    Path source =
        new RandomTree(7).files(600).maxDepth(6).maxFileSize(96 << 10).writeTo(tmp.resolve("src"));
    Set<Thread> walkers = ConcurrentHashMap.newKeySet();
    Set<String> names = ConcurrentHashMap.newKeySet();
    FileBackupListener listener =
        new FileBackupListener() {
          @Override
          public void fileDone(Path path, long bytes, boolean reused) {
            Thread t = Thread.currentThread();
            if (t.getName().startsWith("stele-walk")) {
              walkers.add(t);
              names.add(t.getName());
            }
          }
        };

    FileBackup.Result result =
        new FileBackup(repo, TestRepositories.options(), listener).run(List.of(source));

    assertThat(result.warnings()).isEmpty();
    assertThat(walkers).isNotEmpty().hasSizeLessThanOrEqualTo(4);
    assertThat(names).hasSameSizeAs(walkers);
    TestRepositories.assertRestoresExactly(repo, result.manifest(), source, tmp, "walked tree");
  }
}
