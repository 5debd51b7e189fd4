package dev.stele.engine;

import static dev.stele.engine.TestRepositories.backup;
import static dev.stele.engine.TestRepositories.restore;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.blob.BlobStore;
import dev.stele.blob.ForwardingBlobStore;
import dev.stele.repo.ChunkType;
import dev.stele.repo.Id;
import dev.stele.repo.Index;
import dev.stele.repo.Location;
import dev.stele.repo.PackEntry;
import dev.stele.repo.Repository;
import dev.stele.repo.RepositoryInit;
import dev.stele.repo.SnapshotManifest;
import dev.stele.snapshot.FileBackup;
import dev.stele.snapshot.Node;
import dev.stele.snapshot.SnapshotBrowser;
import dev.stele.testing.AuditingBlobStore;
import dev.stele.testing.BlobOperation;
import dev.stele.testing.InMemoryBlobStore;
import dev.stele.testing.MutableClock;
import dev.stele.testing.RandomTree;
import dev.stele.testing.TreeAssert;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** FileBackup then restore gives back every byte and every attribute that a backup promises. */
class RoundTripTest {
  @TempDir Path tmp;

  private final MutableClock clock = new MutableClock();
  private AuditingBlobStore store;
  private Repository repo;

  @BeforeEach
  void createRepository() throws IOException {
    store = new AuditingBlobStore(new InMemoryBlobStore(clock), clock);
    repo = TestRepositories.init(store, TestRepositories.small(clock));
  }

  private Path roundTrip(Path source) throws IOException {
    FileBackup.Result result = backup(repo, source);
    assertThat(result.warnings()).isEmpty();
    Path target = Files.createTempDirectory(tmp, "restore");
    var restored = restore(reopen(), result.manifest(), source, target);
    assertThat(restored.warnings()).isEmpty();
    // The restore counts what the backup counted: every non-directory, every directory.
    assertThat(restored.files()).isEqualTo(result.manifest().stats().files());
    assertThat(restored.directories()).isEqualTo(result.manifest().stats().dirs());
    return target;
  }

  /** A fresh repository object, so restores read what is stored, not what is cached. */
  private Repository reopen() throws IOException {
    return TestRepositories.open(store, clock);
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  void seededRandomTreesRestoreByteExactWithMetadata(long seed) throws IOException {
    Path source = new RandomTree(seed).files(80).maxFileSize(200 << 10).writeTo(tmp.resolve("src"));

    Path target = roundTrip(source);

    TreeAssert.exact().withOwners(true).assertSame(source, target);
  }

  @Test
  void byteNamesSpecialFilesAndLinkTimesRestoreExactly() throws IOException {
    Path source =
        new RandomTree(4).files(60).byteNames(true).specialFiles(true).writeTo(tmp.resolve("src"));

    Path target = roundTrip(source);

    TreeAssert.exact().withOwners(true).assertSame(source, target);
  }

  @Test
  void manySmallFilesRestoreByteExact() throws IOException {
    Path source = tmp.resolve("small");
    Random random = new Random(7);
    for (int d = 0; d < 20; d++) {
      Path dir = Files.createDirectories(source.resolve("d" + d));
      for (int f = 0; f < 60; f++) {
        byte[] data = new byte[random.nextInt(300)];
        random.nextBytes(data);
        Files.write(dir.resolve("f" + f), data);
      }
    }

    Path target = roundTrip(source);

    TreeAssert.assertSameTree(source, target);
  }

  @Test
  void namesOfOneInodeInDirectoriesWalkedAtOnceStayOneFile() throws IOException {
    // Two walkers make the entries of directories a and b at once, name by name in the same
    // order, and a/nK and b/nK are one inode: it must be made once, under the first name met,
    // and the other name linked to it.
    Path source = Files.createDirectories(tmp.resolve("linked"));
    Path a = Files.createDirectories(source.resolve("a"));
    Path b = Files.createDirectories(source.resolve("b"));
    int names = 300;
    for (int k = 0; k < names; k++) {
      String name = String.format("n%03d", k);
      Files.createLink(b.resolve(name), Files.writeString(a.resolve(name), "content " + k));
    }

    for (int restore = 0; restore < 3; restore++) { // the walkers race differently each time
      Path target = roundTrip(source);

      for (int k = 0; k < names; k++) {
        String name = String.format("n%03d", k);
        Path inA = target.resolve("a").resolve(name);
        Path inB = target.resolve("b").resolve(name);
        assertThat(Files.getAttribute(inB, "unix:ino"))
            .as("%s and %s", inA, inB)
            .isEqualTo(Files.getAttribute(inA, "unix:ino"));
        assertThat(Files.readString(inB)).isEqualTo("content " + k);
      }
    }
  }

  @Test
  void sparseFilesRestoreWithTheirContentAndStaySparse() throws IOException {
    Path source = Files.createDirectories(tmp.resolve("sparse"));
    Random random = new Random(11);
    RandomTree.writeSparse(source.resolve("mostly-holes"), 8 << 20, random, 4);
    RandomTree.writeSparse(source.resolve("only-hole"), 3 << 20, random, 0);
    RandomTree.writeSparse(source.resolve("tiny-tail"), (1 << 20) + 17, random, 1);

    Path target = roundTrip(source);

    TreeAssert.assertSameTree(source, target);
    long allocated = RandomTree.allocatedBytes(target.resolve("mostly-holes"));
    if (allocated >= 0) {
      assertThat(allocated).as("blocks allocated to the restored sparse file").isLessThan(2 << 20);
    }
  }

  @Test
  void largeSparseAndIncompressibleFilesRestoreByteExact() throws IOException {
    // Default chunk and pack sizes here: the point is volume, not many packs.
    InMemoryBlobStore big = new InMemoryBlobStore(clock);
    repo =
        TestRepositories.init(
            big, RepositoryInit.defaults(clock).withKdf(TestRepositories.cheapKdf()));
    Path source = Files.createDirectories(tmp.resolve("large"));
    Random random = new Random(13);
    RandomTree.writeSparse(source.resolve("sparse-100m"), 100L << 20, random, 4);
    RandomTree.writeRandom(source.resolve("random-30m"), 30L << 20, random);

    FileBackup.Result result = backup(repo, source);
    Path target = Files.createTempDirectory(tmp, "restore");
    var restored = restore(TestRepositories.open(big, clock), result.manifest(), source, target);

    assertThat(restored.warnings()).isEmpty();
    TreeAssert.assertSameTree(source, target);
    long allocated = RandomTree.allocatedBytes(target.resolve("sparse-100m"));
    if (allocated >= 0) {
      // Restore leaves all-zero chunks as holes but writes a chunk with any data in full, so
      // each of the four data blocks may cost up to two 4 MiB chunks.
      assertThat(allocated).as("blocks allocated to the restored sparse file").isLessThan(40 << 20);
    }
  }

  @Test
  void ownersArePreservedWhenRestoringAsRoot() throws IOException {
    Path source = Files.createDirectories(tmp.resolve("owned"));
    Files.write(source.resolve("a"), "a".getBytes(StandardCharsets.UTF_8));
    Files.createDirectory(source.resolve("dir"));
    Files.write(source.resolve("dir/b"), "b".getBytes(StandardCharsets.UTF_8));
    boolean root = "root".equals(System.getProperty("user.name"));
    if (root) {
      Files.setAttribute(source.resolve("a"), "unix:uid", 1234, LinkOption.NOFOLLOW_LINKS);
      Files.setAttribute(source.resolve("dir"), "unix:gid", 4321, LinkOption.NOFOLLOW_LINKS);
      Files.setAttribute(source.resolve("dir/b"), "unix:uid", 99, LinkOption.NOFOLLOW_LINKS);
    }

    Path target = roundTrip(source);

    TreeAssert.exact().withOwners(root).assertSame(source, target);
  }

  @Test
  void restoreOfOneSubPathRestoresOnlyItAndReadsOnlyItsPacks() throws IOException {
    Path source = tmp.resolve("src");
    new RandomTree(21).files(20).links(false).oddNames(false).writeTo(source.resolve("a"));
    new RandomTree(22).files(20).links(false).oddNames(false).writeTo(source.resolve("b"));
    FileBackup.Result result = backup(repo, source);
    Repository fresh = reopen();
    SnapshotBrowser browser = new SnapshotBrowser(fresh);
    String subPath = source.resolve("a").toString();
    Set<String> neededPacks = new HashSet<>();
    for (var entry : browser.list(browser.find(result.manifest(), subPath), subPath, true)) {
      Node node = entry.node();
      for (Id chunk : node.isFile() ? node.chunks() : List.<Id>of()) {
        Location location = fresh.index().find(chunk);
        neededPacks.add(location.pack());
      }
    }
    int before = store.calls().size();

    Path target = Files.createTempDirectory(tmp, "restore");
    var restored = restore(fresh, result.manifest(), source.resolve("a"), target);

    assertThat(restored.warnings()).isEmpty();
    TreeAssert.assertSameTree(source.resolve("a"), target);
    Set<String> dataPacksRead =
        store.calls().subList(before, store.calls().size()).stream()
            .filter(c -> c.operation() == BlobOperation.READ && c.name().startsWith("packs/"))
            .map(AuditingBlobStore.Call::name)
            .collect(Collectors.toSet());
    Set<String> treePacks = treePacks(fresh, result.manifest(), subPath);
    dataPacksRead.removeAll(treePacks);
    assertThat(dataPacksRead).isSubsetOf(neededPacks);
  }

  @Test
  void aChunkInManyPlacesIsReadOnceAndWrittenToEachOfThem() throws IOException {
    List<long[]> ranges = new ArrayList<>(); // pack number, start, end
    Map<String, Integer> packs = new HashMap<>();
    BlobStore logged =
        new ForwardingBlobStore(new InMemoryBlobStore(clock)) {
          @Override
          public byte[] read(String name, long offset, int length) throws IOException {
            synchronized (ranges) {
              ranges.add(
                  new long[] {
                    packs.computeIfAbsent(name, k -> packs.size()), offset, offset + length
                  });
            }
            return super.read(name, offset, length);
          }
        };
    Repository written = TestRepositories.init(logged, TestRepositories.small(clock));
    Path source = tmp.resolve("src");
    byte[] block = new byte[3 << 20];
    new Random(5).nextBytes(block);
    Files.createDirectories(source.resolve("a/b"));
    Files.write(source.resolve("one"), block);
    Files.write(source.resolve("a/two"), block);
    byte[] twice = Arrays.copyOf(block, 2 * block.length);
    System.arraycopy(block, 0, twice, block.length, block.length);
    Files.write(source.resolve("a/b/twice"), twice);
    FileBackup.Result result = backup(written, source);
    Repository fresh = TestRepositories.open(logged, clock);
    fresh.index(); // loaded now, so that only the restore's own reads are counted
    ranges.clear();

    Path target = Files.createTempDirectory(tmp, "restore");
    var restored = restore(fresh, result.manifest(), source, target);

    assertThat(restored.warnings()).isEmpty();
    TreeAssert.assertSameTree(source, target);
    // Every chunk of the block lies in some pack range, read once although it goes to four places.
    ranges.sort(Comparator.<long[]>comparingLong(r -> r[0]).thenComparingLong(r -> r[1]));
    long readBytes = 0;
    for (int i = 0; i < ranges.size(); i++) {
      long[] r = ranges.get(i);
      readBytes += r[2] - r[1];
      if (i > 0 && ranges.get(i - 1)[0] == r[0]) {
        assertThat(r[1])
            .as("ranges of a pack read twice")
            .isGreaterThanOrEqualTo(ranges.get(i - 1)[2]);
      }
    }
    assertThat(readBytes).isGreaterThan(block.length).isLessThan(2L * block.length);
  }

  /** Packs holding the trees on the way from the root to {@code path} and below it. */
  private static Set<String> treePacks(Repository repo, SnapshotManifest snapshot, String path)
      throws IOException {
    SnapshotBrowser browser = new SnapshotBrowser(repo);
    Set<String> packs = new HashSet<>();
    packs.add(repo.index().find(Id.parse(snapshot.tree())).pack());
    StringBuilder prefix = new StringBuilder();
    for (String segment : path.split("/", -1)) {
      if (segment.isEmpty()) {
        continue;
      }
      prefix.append('/').append(segment);
      Node node = browser.find(snapshot, prefix.toString());
      if (node.isDirectory()) {
        packs.add(repo.index().find(node.subtree()).pack());
      }
    }
    Node start = browser.find(snapshot, path);
    for (var e : browser.list(start, path, true)) {
      if (e.node().isDirectory()) {
        packs.add(repo.index().find(e.node().subtree()).pack());
      }
    }
    return packs;
  }

  @Test
  void secondBackupOfUnchangedTreeStoresNoNewChunksAndHasTheSameRootTree(
      @TempDir(factory = QuietTempDir.class) Path quiet) throws IOException {
    Path source = new RandomTree(31).files(40).writeTo(quiet.resolve("src"));
    FileBackup.Result first = backup(repo, source);
    FileBackup.Result second =
        backup(
            repo,
            TestRepositories.options().withParent(first.manifest(), first.id().hex()),
            source);

    assertThat(second.manifest().stats().chunksNew()).isZero();
    assertThat(second.manifest().stats().filesNew()).isZero();
    assertThat(second.manifest().tree()).isEqualTo(first.manifest().tree());
    assertThat(second.manifest().parent()).isEqualTo(first.id().hex());

    // And without a parent: every file is read again, but nothing new is stored.
    FileBackup.Result third = backup(repo, source);
    assertThat(third.manifest().stats().chunksNew()).isZero();
    assertThat(third.manifest().tree()).isEqualTo(first.manifest().tree());
  }

  @Test
  void anUnchangedTreeWhosePackIsMarkedIsStoredAgainNotReused(
      @TempDir(factory = QuietTempDir.class) Path quiet) throws IOException {
    Path source = new RandomTree(32).files(40).writeTo(quiet.resolve("src"));
    FileBackup.Result first = backup(repo, source);
    Set<String> treePacks =
        repo.loadIndex().packs().entrySet().stream()
            .filter(p -> p.getValue().stream().anyMatch(e -> e.type() == ChunkType.TREE))
            .map(Map.Entry::getKey)
            .collect(Collectors.toSet());
    for (String pack : treePacks) {
      TestRepositories.mark(repo, pack);
    }

    // Every directory is unchanged, but its tree in the parent is on its way out: the backup
    // must store it again rather than name the parent's copy.
    FileBackup.Result second =
        backup(
            repo,
            TestRepositories.options().withParent(first.manifest(), first.id().hex()),
            source);

    assertThat(second.manifest().stats().filesNew()).isZero();
    assertThat(second.manifest().stats().chunksNew()).isPositive();
    assertThat(second.manifest().tree()).isEqualTo(first.manifest().tree());
    Index index = reopen().loadIndex();
    assertThat(index.markedPacks()).containsAll(treePacks);
    for (String pack : treePacks) {
      for (PackEntry tree : index.packs().get(pack)) {
        assertThat(index.find(tree.id()).pack()).isNotIn(treePacks);
      }
    }
  }

  @Test
  void backupAfterModifyingOneFileReadsOnlyThatFile() throws IOException {
    RandomTree tree = new RandomTree(41).files(40).links(false);
    Path source = tree.writeTo(tmp.resolve("src"));
    FileBackup.Result first = backup(repo, source);
    Path changed = tree.files().get(5);
    FileTime mtime = Files.getLastModifiedTime(changed);
    Files.write(changed, "new content".getBytes(StandardCharsets.UTF_8));
    Files.setLastModifiedTime(changed, mtime); // size and ctime still tell it changed

    FileBackup.Result second =
        backup(
            repo,
            TestRepositories.options().withParent(first.manifest(), first.id().hex()),
            source);

    assertThat(second.manifest().stats().filesNew()).isEqualTo(1);
    assertThat(second.manifest().stats().files()).isEqualTo(first.manifest().stats().files());
    Path target = Files.createTempDirectory(tmp, "restore");
    restore(reopen(), second.manifest(), source, target);
    TreeAssert.assertSameTree(source, target);
  }

  @Test
  void excludedNamesAndPathsAreNotBackedUp() throws IOException {
    Path source = Files.createDirectories(tmp.resolve("src"));
    Files.createDirectories(source.resolve("keep/cache"));
    Files.createDirectories(source.resolve("skip-dir/inner"));
    Files.write(source.resolve("keep/a.txt"), new byte[] {1});
    Files.write(source.resolve("keep/b.log"), new byte[] {2});
    Files.write(source.resolve("keep/cache/c.txt"), new byte[] {3});
    Files.write(source.resolve("skip-dir/inner/d.txt"), new byte[] {4});
    Files.write(source.resolve("e.log"), new byte[] {5});

    FileBackup.Result result =
        backup(
            repo,
            TestRepositories.options()
                .withExcludes(List.of("*.log", "cache", source.resolve("skip-dir") + "")),
            source);

    Path target = Files.createTempDirectory(tmp, "restore");
    restore(reopen(), result.manifest(), source, target);
    try (var walk = Files.walk(target)) {
      assertThat(walk.map(p -> target.relativize(p).toString()).sorted())
          .containsExactly("", "keep", "keep/a.txt");
    }
  }

  static void deleteRecursively(Path root) throws IOException {
    if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (var walk = Files.walk(root)) {
      for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
