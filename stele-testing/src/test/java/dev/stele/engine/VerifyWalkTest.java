package dev.stele.engine;

import static dev.stele.engine.TestRepositories.backup;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.maintenance.Verify;
import dev.stele.maintenance.VerifyListener;
import dev.stele.repo.Id;
import dev.stele.repo.Location;
import dev.stele.repo.Repository;
import dev.stele.snapshot.FileBackup;
import dev.stele.snapshot.SnapshotBrowser;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.testing.InMemoryBlobStore;
import dev.stele.testing.MutableClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The walk reads wide directories in batches on several threads: every tree is counted once and a
 * damaged one among them is named, whichever thread read it. A forgotten snapshot is not walked.
 */
class VerifyWalkTest {
  private static final int DIRECTORIES = 150;

  @TempDir Path tmp;

  private final MutableClock clock = new MutableClock();

  @Test
  void everyTreeOfAWideDirectoryIsWalkedAndADamagedOneIsNamed() throws IOException {
    InMemoryBlobStore store = new InMemoryBlobStore(clock);
    Repository repo = TestRepositories.init(store, TestRepositories.small(clock));
    Path root = Files.createDirectories(tmp.resolve("wide"));
    for (int i = 0; i < DIRECTORIES; i++) {
      Path dir = Files.createDirectories(root.resolve(String.format(Locale.ROOT, "d%03d", i)));
      Files.writeString(dir.resolve("f"), "file " + i);
    }
    FileBackup.Result snapshot = backup(repo, root);

    Verify.Result clean = new Verify(repo).run(false, VerifyListener.NONE);
    assertThat(clean.problems()).isEmpty();
    long trees = clean.trees();
    assertThat(trees).isGreaterThan(DIRECTORIES);

    // Damage the tree of one directory in the middle of the widest batch.
    SnapshotBrowser browser = new SnapshotBrowser(repo);
    Id damaged =
        browser.list(browser.find(snapshot.manifest(), root.toString()), "", false).stream()
            .filter(e -> e.node().name().equals("d077"))
            .map(e -> e.node().subtree())
            .findFirst()
            .orElseThrow();
    Location location = repo.index().find(damaged);
    store.corrupt(location.pack(), location.entry().offset() + location.entry().length() / 2);

    Verify.Result result =
        new Verify(TestRepositories.open(store, clock)).run(false, VerifyListener.NONE);
    assertThat(result.problems()).singleElement().asString().contains("tree " + damaged.shortHex());
    assertThat(result.trees()).isEqualTo(trees - 1);
  }

  @Test
  void aForgottenSnapshotIsNotWalked() throws IOException {
    InMemoryBlobStore store = new InMemoryBlobStore(clock);
    Repository repo = TestRepositories.init(store, TestRepositories.small(clock));
    Path first = Files.createDirectories(tmp.resolve("first"));
    Files.writeString(first.resolve("f"), "kept");
    Path second = Files.createDirectories(tmp.resolve("second/deeper"));
    Files.writeString(second.resolve("g"), "forgotten");
    backup(repo, first);
    FileBackup.Result forgotten = backup(repo, tmp.resolve("second"));
    long bothTrees = new Verify(repo).run(false, VerifyListener.NONE).trees();

    new SnapshotCatalog(repo).forget(forgotten.id(), "test");
    Verify.Result result =
        new Verify(TestRepositories.open(store, clock)).run(false, VerifyListener.NONE);
    assertThat(result.problems()).isEmpty();
    assertThat(result.snapshots()).isEqualTo(1);
    assertThat(result.trees()).isLessThan(bothTrees);
  }
}
