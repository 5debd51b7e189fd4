package dev.stele.engine;

import static dev.stele.engine.TestRepositories.backup;
import static dev.stele.engine.TestRepositories.restore;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.maintenance.Maintenance;
import dev.stele.maintenance.Verify;
import dev.stele.maintenance.VerifyListener;
import dev.stele.repo.ChunkType;
import dev.stele.repo.Id;
import dev.stele.repo.Location;
import dev.stele.repo.PackEntry;
import dev.stele.repo.Repository;
import dev.stele.snapshot.FileBackup;
import dev.stele.snapshot.SnapshotBrowser;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.testing.InMemoryBlobStore;
import dev.stele.testing.MutableClock;
import dev.stele.testing.RandomTree;
import dev.stele.testing.TreeAssert;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every damaged blob is noticed and named; damage costs only what it touched. */
class CorruptionTest {
  @TempDir Path tmp;

  private final MutableClock clock = new MutableClock();
  private final InMemoryBlobStore pristine = new InMemoryBlobStore(clock);
  private Path second;
  private FileBackup.Result kept;

  /** A small repository holding one blob of every family: format, keys, packs, index, ... */
  @BeforeEach
  void createRepository() throws IOException {
    Repository repo = TestRepositories.init(pristine, TestRepositories.small(clock));
    Path first =
        new RandomTree(1).files(30).links(false).oddNames(false).writeTo(tmp.resolve("first"));
    second =
        new RandomTree(2).files(30).links(false).oddNames(false).writeTo(tmp.resolve("second"));
    FileBackup.Result forgotten = backup(repo, first);
    kept = backup(repo, second);
    new SnapshotCatalog(repo).forget(forgotten.id(), "test");
    repo.addKey("another password".toCharArray(), TestRepositories.cheapKdf());
    new Maintenance(repo).run(false);
  }

  private InMemoryBlobStore copy() throws IOException {
    InMemoryBlobStore copy = new InMemoryBlobStore(clock);
    TestRepositories.copy(pristine, copy);
    return copy;
  }

  @Test
  void everyCorruptedBlobIsNamedByOpenOrByVerify() throws IOException {
    List<String> names = pristine.names();
    assertThat(names)
        .anyMatch(n -> n.equals("stele.format"))
        .anyMatch(n -> n.startsWith("keys/"))
        .anyMatch(n -> n.startsWith("packs/"))
        .anyMatch(n -> n.startsWith("index/"))
        .anyMatch(n -> n.startsWith("snapshots/"))
        .anyMatch(n -> n.startsWith("tombstones/"))
        .anyMatch(n -> n.startsWith("maintenance/"));
    Random random = new Random(5);
    List<String> undetected = new ArrayList<>();
    for (String name : names) {
      int size = (int) pristine.stat(name).size();
      for (int position : new int[] {0, random.nextInt(size), size - 1}) {
        InMemoryBlobStore store = copy();
        store.corrupt(name, position);
        String found = detect(store, name);
        if (found == null) {
          undetected.add(name + " byte " + position + "/" + size);
        }
      }
    }
    assertThat(undetected).as("corruptions nobody named").isEmpty();
  }

  /** The line naming {@code name}, from opening or verifying; null if nothing named it. */
  private String detect(InMemoryBlobStore store, String name) {
    Repository repo;
    try {
      repo = TestRepositories.open(store, clock);
    } catch (IOException | RuntimeException e) {
      return String.valueOf(e.getMessage()).contains(name) ? e.getMessage() : null;
    }
    try {
      for (String problem : new Verify(repo).run(true, VerifyListener.NONE).problems()) {
        if (problem.contains(name)) {
          return problem;
        }
      }
      return null;
    } catch (IOException | RuntimeException e) {
      return String.valueOf(e.getMessage()).contains(name) ? e.getMessage() : null;
    }
  }

  @Test
  void aCorruptedDataPackCostsOnlyTheFilesThatUseIt() throws IOException {
    Repository repo = TestRepositories.open(pristine, clock);
    SnapshotBrowser browser = new SnapshotBrowser(repo);
    String root = second.toString();
    // Which files use which pack.
    Map<String, List<PackEntry>> packs = repo.loadIndex().packs();
    String damaged =
        packs.entrySet().stream()
            .filter(p -> p.getValue().stream().allMatch(e -> e.type() == ChunkType.DATA))
            .filter(p -> usedBy(repo, browser, kept, root, p.getKey()).size() >= 1)
            .map(Map.Entry::getKey)
            .sorted()
            .findFirst()
            .orElseThrow();
    Set<String> affected = usedBy(repo, browser, kept, root, damaged);
    InMemoryBlobStore store = copy();
    for (PackEntry e : packs.get(damaged)) {
      store.corrupt(damaged, e.offset() + e.length() / 2);
    }

    Path target = Files.createTempDirectory(tmp, "restore");
    var result = restore(TestRepositories.open(store, clock), kept.manifest(), second, target);

    for (String file : affected) {
      assertThat(result.warnings()).anySatisfy(w -> assertThat(w).contains(file));
    }
    List<String> differences = TreeAssert.exact().differences(second, target);
    assertThat(differences)
        .as("only files using %s differ", damaged)
        .allSatisfy(
            d -> assertThat(affected).anySatisfy(f -> assertThat(d).startsWith("'" + f + "'")));
    assertThat(differences).isNotEmpty();
  }

  /**
   * Verify reads a pack in one pass, chunk by chunk into a reused buffer (PackCheck): a pack of 12
   * MiB of chunks is checked clean, and damage at its start, middle or end is named.
   */
  @Test
  void verifyReadsEveryPartOfALargePack() throws IOException {
    InMemoryBlobStore store = new InMemoryBlobStore(clock);
    Repository repo =
        TestRepositories.init(store, TestRepositories.small(clock).withPackSize(16 << 20));
    Path source = Files.createDirectories(tmp.resolve("large"));
    byte[] random = new byte[12 << 20];
    new Random(7).nextBytes(random);
    Files.write(source.resolve("random"), random);
    backup(repo, source);
    String pack =
        repo.loadIndex().packs().entrySet().stream()
            .filter(p -> p.getValue().stream().allMatch(e -> e.type() == ChunkType.DATA))
            .map(Map.Entry::getKey)
            .findFirst()
            .orElseThrow();
    int size = (int) store.stat(pack).size();
    assertThat(size).isGreaterThan(3 * (4 << 20));
    assertThat(new Verify(repo).run(true, VerifyListener.NONE).problems()).isEmpty();

    for (int position : new int[] {1 << 20, 6 << 20, size - (1 << 20)}) {
      InMemoryBlobStore damaged = new InMemoryBlobStore(clock);
      TestRepositories.copy(store, damaged);
      damaged.corrupt(pack, position);
      assertThat(
              new Verify(TestRepositories.open(damaged, clock))
                  .run(true, VerifyListener.NONE)
                  .problems())
          .as("damage at byte %d of %d", position, size)
          .anySatisfy(problem -> assertThat(problem).contains(pack).contains("chunk"));
    }
  }

  /**
   * Relative paths of the files under {@code root} in the snapshot with a chunk in {@code pack}.
   */
  private static Set<String> usedBy(
      Repository repo,
      SnapshotBrowser browser,
      FileBackup.Result snapshot,
      String root,
      String pack) {
    Set<String> files = new HashSet<>();
    try {
      for (var e : browser.list(browser.find(snapshot.manifest(), root), root, true)) {
        if (!e.node().isFile()) {
          continue;
        }
        for (Id chunk : e.node().chunks()) {
          Location location = repo.index().find(chunk);
          if (location.pack().equals(pack)) {
            files.add(e.path().substring(root.length() + 1));
          }
        }
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return files;
  }

  @Test
  void aCorruptedIndexBlobIsWarnedAboutAndEverythingStillRestores() throws IOException {
    List<String> indexes = pristine.names().stream().filter(n -> n.startsWith("index/")).toList();
    assertThat(indexes).isNotEmpty();
    for (String index : indexes) {
      InMemoryBlobStore store = copy();
      store.corrupt(index, (int) pristine.stat(index).size() / 2);

      Repository repo = TestRepositories.open(store, clock);
      repo.loadIndex();
      assertThat(repo.warnings()).anySatisfy(w -> assertThat(w).contains(index));
      Path target = Files.createTempDirectory(tmp, "restore");
      var result = restore(repo, kept.manifest(), second, target);
      assertThat(result.warnings()).isEmpty();
      TreeAssert.assertSameTree(second, target);
    }
  }
}
