package dev.stele.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stele.repo.ChunkType;
import dev.stele.repo.ChunkWriter;
import dev.stele.repo.Id;
import dev.stele.repo.PackEntry;
import dev.stele.repo.Repository;
import dev.stele.repo.SnapshotManifest;
import dev.stele.snapshot.FileName;
import dev.stele.snapshot.FileRestore;
import dev.stele.snapshot.FileRestoreListener;
import dev.stele.snapshot.Node;
import dev.stele.snapshot.Node.Kind;
import dev.stele.snapshot.Tree;
import dev.stele.testing.InMemoryBlobStore;
import dev.stele.testing.MutableClock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * FileRestore never leaves its target and restores every kind of entry exactly. Snapshots are built
 * by hand from {@link Tree}s and {@link Node}s, so a test can hold what no backup would record: a
 * {@code ..}, a FIFO, a device node, names that are not UTF-8. These tests run as root (here and in
 * CI) and say so.
 */
class RestoreTargetTest {
  private static final long MTIME = 1_700_000_000_123_456_789L;
  private static final int UID = 4242;
  private static final int GID = 4343;

  @TempDir Path tmp;

  private final MutableClock clock = new MutableClock();
  private InMemoryBlobStore store;
  private Repository repo;
  private ChunkWriter writer;
  private Path target;
  private Path outside;
  private long nextInode = 100;

  @BeforeEach
  void setUp() throws IOException {
    store = new InMemoryBlobStore(clock);
    repo = TestRepositories.init(store, TestRepositories.small(clock));
    writer = repo.newWriter(1);
    target = Files.createDirectories(tmp.resolve("target"));
    outside = Files.createDirectories(tmp.resolve("outside"));
    Files.writeString(outside.resolve("f"), "outside, keep me");
    Files.createDirectories(outside.resolve("dir"));
    Files.writeString(outside.resolve("dir/f"), "outside too");
    assertThat(Files.readAttributes(tmp, "unix:uid").get("uid"))
        .as("these tests run as root")
        .isEqualTo(0);
  }

  // --- never outside the target ---

  @Test
  void aSymlinkPlantedAtADirectoryIsReplacedAndNothingIsWrittenThroughIt() throws IOException {
    Map<String, String> before = contents(outside);
    Files.createDirectories(target.resolve("sub"));
    Files.createSymbolicLink(target.resolve("sub/dir"), outside.resolve("dir"));

    FileRestore.Result result =
        restore(snapshot(dir("sub", dir("dir", file("f", "restored"), file("new", "new")))));

    assertThat(contents(outside)).isEqualTo(before);
    assertThat(target.resolve("sub/dir")).isDirectory();
    assertThat(Files.isSymbolicLink(target.resolve("sub/dir"))).isFalse();
    assertThat(target.resolve("sub/dir/f")).hasContent("restored");
    assertThat(result.warnings()).isEmpty();
  }

  @Test
  void aSymlinkPlantedAtAFileIsReplacedAndItsTargetIsUntouched() throws IOException {
    Map<String, String> before = contents(outside);
    Files.createSymbolicLink(target.resolve("f"), outside.resolve("f"));

    restore(snapshot(file("f", "restored")));

    assertThat(contents(outside)).isEqualTo(before);
    assertThat(Files.isSymbolicLink(target.resolve("f"))).isFalse();
    assertThat(target.resolve("f")).hasContent("restored");
  }

  @Test
  void aHardLinkInTheTargetToAFileOutsideIsReplacedNotWritten() throws IOException {
    Files.createLink(target.resolve("f"), outside.resolve("f"));

    restore(snapshot(file("f", "restored")));

    assertThat(outside.resolve("f")).hasContent("outside, keep me");
    assertThat(Files.getAttribute(outside.resolve("f"), "unix:nlink")).isEqualTo(1);
    assertThat(target.resolve("f")).hasContent("restored");
  }

  @Test
  void aDirectorySwappedForASymlinkDuringTheRestoreIsNotWrittenThrough() throws IOException {
    Files.writeString(outside.resolve("dir/g"), "outside as well");
    Map<String, String> before = contents(outside);
    SnapshotManifest snapshot = snapshot(dir("sub", file("f", "restored"), file("g", "more")));
    Path moved = tmp.resolve("moved");
    // After the walk made every entry and before any chunk is written: swap sub for a link.
    FileRestoreListener swapper =
        new FileRestoreListener() {
          @Override
          public void planned(long files, long bytes) {
            try {
              Files.move(target.resolve("sub"), moved);
              Files.createSymbolicLink(target.resolve("sub"), outside.resolve("dir"));
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          }
        };

    FileRestore.Result result = new FileRestore(reopen(), 2, swapper).run(snapshot, "/", target);

    assertThat(contents(outside)).isEqualTo(before);
    assertThat(result.warnings())
        .contains(
            target + "/sub/f: replaced during the restore: not written",
            target + "/sub/g: replaced during the restore: not written",
            target + "/sub: replaced during the restore: left as it is (Not a directory)");
    assertThat(moved.resolve("f")).isEmptyFile();
    assertThat(result.files()).isZero();
  }

  @Test
  void aFileSwappedForAHardLinkToAFileOutsideDuringTheRestoreIsNotWritten() throws IOException {
    SnapshotManifest snapshot = snapshot(file("f", "restored, and longer than the outside file"));
    Map<String, String> before = contents(outside);
    FileRestoreListener swapper =
        new FileRestoreListener() {
          @Override
          public void planned(long files, long bytes) {
            try {
              Files.delete(target.resolve("f"));
              Files.createLink(target.resolve("f"), outside.resolve("f"));
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          }
        };

    FileRestore.Result result = new FileRestore(reopen(), 2, swapper).run(snapshot, "/", target);

    assertThat(contents(outside)).isEqualTo(before);
    assertThat(result.warnings())
        .containsExactly(target + "/f: replaced during the restore: not written");
    assertThat(result.files()).isZero();
  }

  @Test
  void namesThatAreNotOneElementAreRefusedAndNothingOutsideIsWritten() throws IOException {
    Path inner = Files.createDirectories(tmp.resolve("inner"));
    Path innerTarget = inner.resolve("target");
    SnapshotManifest snapshot =
        snapshot(
            dir("..", file("escaped", "no")),
            file("../up", "no"),
            file(".", "no"),
            dir("sub", file("..", "no"), file("ok", "yes")));

    FileRestore.Result result =
        new FileRestore(reopen(), 2, FileRestoreListener.NONE).run(snapshot, "/", innerTarget);

    try (Stream<Path> s = Files.list(inner)) {
      assertThat(s.toList()).containsExactly(innerTarget);
    }
    assertThat(innerTarget.resolve("sub/ok")).hasContent("yes");
    assertThat(tree(innerTarget)).containsOnlyKeys("sub", "sub/ok");
    assertThat(result.warnings())
        .containsExactlyInAnyOrder(
            innerTarget
                + ": the snapshot names an entry '..', which is not a file name: not restored",
            innerTarget
                + ": the snapshot names an entry '../up', which is not a file name: not restored",
            innerTarget
                + ": the snapshot names an entry '.', which is not a file name: not restored",
            innerTarget
                + "/sub: the snapshot names an entry '..', which is not a file name: not restored");
  }

  // --- what is already there ---

  @Test
  void aDirectoryAgainstAFileEitherWayIsOneLineAndLeftAsItIs() throws IOException {
    Files.createDirectories(target.resolve("a"));
    Files.writeString(target.resolve("a/mine"), "mine");
    Files.writeString(target.resolve("b"), "my file");

    FileRestore.Result result =
        restore(snapshot(file("a", "snapshot file"), dir("b", file("inner", "x")), file("c", "c")));

    assertThat(result.warnings())
        .containsExactly(
            target + "/a: is a directory in the target, a file in the snapshot: not restored",
            target + "/b: is a file in the target, a directory in the snapshot: not restored");
    assertThat(target.resolve("a/mine")).hasContent("mine");
    assertThat(target.resolve("b")).hasContent("my file");
    assertThat(target.resolve("c")).hasContent("c");
  }

  @Test
  void anExistingFileIsReplacedByTheSnapshotsFile() throws IOException {
    Files.writeString(target.resolve("f"), "an older and longer version of the file");

    FileRestore.Result result = restore(snapshot(file("f", "new")));

    assertThat(target.resolve("f")).hasContent("new");
    assertThat(result.warnings()).isEmpty();
  }

  @Test
  void withKeepExistingAFileAlreadyThereStaysAndWhatIsMissingIsRestored() throws IOException {
    Files.writeString(target.resolve("f"), "mine");
    Files.createSymbolicLink(target.resolve("l"), outside.resolve("f"));

    FileRestore.Result result =
        new FileRestore(reopen(), 2, FileRestoreListener.NONE)
            .keepExisting()
            .run(
                snapshot(file("f", "snapshot"), file("l", "snapshot"), file("g", "new")),
                "/",
                target);

    assertThat(target.resolve("f")).hasContent("mine");
    assertThat(Files.isSymbolicLink(target.resolve("l"))).isTrue();
    assertThat(outside.resolve("f")).hasContent("outside, keep me");
    assertThat(target.resolve("g")).hasContent("new");
    assertThat(result.kept()).isEqualTo(2);
    assertThat(result.warnings()).isEmpty();
  }

  // --- one path to its own place ---

  @Test
  void aPathIsRestoredToTheSamePlaceBelowTheTargetAndNothingElseIs() throws IOException {
    SnapshotManifest snapshot =
        snapshot(
            dir("vol", dir("a", dir("b", file("f", "restored")), file("other", "not asked"))),
            file("top", "not asked"));
    Files.createDirectories(target.resolve("a"));
    Files.writeString(target.resolve("a/mine"), "mine");

    FileRestore.Result result =
        new FileRestore(reopen(), 2, FileRestoreListener.NONE)
            .runAt(snapshot, "/vol", "/a/b", target);

    assertThat(target.resolve("a/b/f")).hasContent("restored");
    assertThat(target.resolve("a/mine")).hasContent("mine");
    assertThat(target.resolve("a/other")).doesNotExist();
    assertThat(target.resolve("top")).doesNotExist();
    assertThat(result.files()).isEqualTo(1);

    new FileRestore(reopen(), 2, FileRestoreListener.NONE)
        .runAt(snapshot, "/vol", "/a/other", target);
    assertThat(target.resolve("a/other")).hasContent("not asked");
  }

  @Test
  void aPathThroughASymlinkInTheTargetFailsAndWritesNothingOutside() throws IOException {
    Map<String, String> before = contents(outside);
    Files.createSymbolicLink(target.resolve("a"), outside.resolve("dir"));
    SnapshotManifest snapshot = snapshot(dir("a", file("f", "restored"), file("g", "new")));
    FileRestore restore = new FileRestore(reopen(), 2, FileRestoreListener.NONE);

    assertThatThrownBy(() -> restore.runAt(snapshot, "/", "/a/g", target))
        .isInstanceOf(IOException.class);
    assertThat(contents(outside)).isEqualTo(before);
    assertThatThrownBy(() -> restore.runAt(snapshot, "/", "/a/../a/g", target))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("/a/../a/g: a path with . or .. is not restored");
    assertThat(contents(outside)).isEqualTo(before);
  }

  // --- damage ---

  @Test
  void aFileWithADamagedChunkIsRemovedAndNamedWithThePack() throws IOException {
    Node damaged = file("damaged", "this content will not be readable");
    SnapshotManifest snapshot = snapshot(damaged, file("fine", "fine"));
    String pack = repo.loadIndex().find(damaged.chunks().get(0)).pack();
    for (PackEntry e : repo.index().packs().get(pack)) {
      if (e.type() == ChunkType.DATA) {
        store.corrupt(pack, e.offset() + e.length() / 2);
      }
    }

    FileRestore.Result result = restore(snapshot);

    assertThat(target.resolve("damaged")).doesNotExist();
    assertThat(result.damaged()).isEqualTo(2);
    assertThat(result.files()).isZero();
    assertThat(result.warnings())
        .anySatisfy(
            w ->
                assertThat(w)
                    .startsWith(target + "/damaged: not restored, and removed: ")
                    .contains(pack));
  }

  @Test
  void aFileWhoseChunkIsMissingFromTheIndexIsNotCreated() throws IOException {
    Node lost =
        new Node(
            "lost",
            Kind.FILE,
            0644,
            0,
            0,
            MTIME,
            MTIME,
            1,
            1,
            1,
            5,
            List.of(Id.of(new byte[32])),
            null,
            null);

    FileRestore.Result result = restore(snapshot(lost, file("fine", "fine")));

    assertThat(target.resolve("lost")).doesNotExist();
    assertThat(target.resolve("fine")).hasContent("fine");
    assertThat(result.damaged()).isEqualTo(1);
    assertThat(result.warnings()).singleElement().asString().startsWith(target + "/lost: chunk ");
  }

  @Test
  void aFileWhoseChunkIsMissingLeavesWhatTheTargetHasUnderItsName() throws IOException {
    Files.writeString(target.resolve("kept"), "mine");
    Node lost =
        new Node(
            "kept",
            Kind.FILE,
            0644,
            0,
            0,
            MTIME,
            MTIME,
            1,
            1,
            1,
            5,
            List.of(Id.of(new byte[32])),
            null,
            null);

    FileRestore.Result result = restore(snapshot(lost));

    assertThat(target.resolve("kept")).hasContent("mine");
    assertThat(result.damaged()).isEqualTo(1);
  }

  // --- everything recorded ---

  @Test
  void specialFilesAreRestoredWithModeOwnerAndTime() throws IOException {
    long nullDevice = (1 << 8) | 3; // 1:3, like /dev/null
    long loop = 7 << 8; // 7:0
    FileRestore.Result result =
        restore(
            snapshot(
                special("fifo", Kind.FIFO, 0),
                special("socket", Kind.SOCKET, 0),
                special("char", Kind.CHAR_DEVICE, nullDevice),
                special("block", Kind.BLOCK_DEVICE, loop)));

    assertThat(result.warnings()).isEmpty();
    assertSpecial("fifo", 0010000, 0);
    assertSpecial("socket", 0140000, 0);
    assertSpecial("char", 0020000, nullDevice);
    assertSpecial("block", 0060000, loop);
  }

  private void assertSpecial(String name, int type, long rdev) throws IOException {
    Map<String, Object> a =
        Files.readAttributes(target.resolve(name), "unix:*", LinkOption.NOFOLLOW_LINKS);
    assertThat(a.get("mode")).as(name).isEqualTo(type | 0640);
    assertThat(a.get("uid")).as(name).isEqualTo(UID);
    assertThat(a.get("gid")).as(name).isEqualTo(GID);
    assertThat(a.get("lastModifiedTime")).as(name).isEqualTo(time(MTIME));
    if (rdev != 0) {
      assertThat(a.get("rdev")).as(name).isEqualTo(rdev);
    }
  }

  @Test
  void symbolicLinksGetTheirOwnOwnerAndModificationTime() throws IOException {
    long linkTime = MTIME - 86_400_000_000_000L;
    Node link =
        new Node(
            "link", Kind.SYMLINK, 0777, UID, GID, linkTime, linkTime, 1, 9, 1, 0, null, null, "f");

    restore(snapshot(link, file("f", "x")));

    Path p = target.resolve("link");
    assertThat(Files.readSymbolicLink(p)).isEqualTo(Path.of("f"));
    assertThat(Files.getLastModifiedTime(p, LinkOption.NOFOLLOW_LINKS)).isEqualTo(time(linkTime));
    assertThat(Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS)).isEqualTo(UID);
    assertThat(Files.getLastModifiedTime(target.resolve("f"))).isEqualTo(time(MTIME));
  }

  private static FileTime time(long nanos) {
    return FileTime.from(java.time.Instant.ofEpochSecond(0, nanos));
  }

  @Test
  void namesDifferingOnlyInAnInvalidUtf8ByteRestoreAsTwoFilesWithTheExactBytes()
      throws IOException {
    String ff = FileName.decode(new byte[] {'c', 'o', 'l', (byte) 0xff});
    String fe = FileName.decode(new byte[] {'c', 'o', 'l', (byte) 0xfe});

    restore(snapshot(file(ff, "ff"), file(fe, "fe")));

    List<String> names = new ArrayList<>();
    try (Stream<Path> s = Files.list(target)) {
      s.forEach(p -> names.add(FileName.of(p)));
    }
    assertThat(names).containsExactlyInAnyOrder(ff, fe);
    assertThat(FileName.resolve(target, ff)).hasContent("ff");
    assertThat(FileName.resolve(target, fe)).hasContent("fe");
  }

  @Test
  void aTargetWhoseNameIsNotUtf8IsRestoredInto() throws IOException {
    target = FileName.resolve(tmp, FileName.decode(new byte[] {'t', (byte) 0xff}));

    restore(snapshot(file("f", "x")));

    assertThat(target.resolve("f")).hasContent("x");
  }

  @Test
  void filesAndDirectoriesGetModeOwnerAndTime() throws IOException {
    restore(snapshot(dir("d", file("f", "x"))));

    for (Path p : List.of(target.resolve("d"), target.resolve("d/f"))) {
      Map<String, Object> a = Files.readAttributes(p, "unix:*", LinkOption.NOFOLLOW_LINKS);
      assertThat((int) a.get("mode") & 07777)
          .as(p.toString())
          .isEqualTo(Files.isDirectory(p) ? 0750 : 0640);
      assertThat(a.get("uid")).isEqualTo(UID);
      assertThat(a.get("gid")).isEqualTo(GID);
      assertThat(a.get("lastModifiedTime")).isEqualTo(time(MTIME));
    }
  }

  // --- building snapshots by hand ---

  private FileRestore.Result restore(SnapshotManifest snapshot) throws IOException {
    return new FileRestore(reopen(), 2, FileRestoreListener.NONE).run(snapshot, "/", target);
  }

  private Repository reopen() throws IOException {
    return TestRepositories.open(store, clock);
  }

  private SnapshotManifest snapshot(Node... entries) throws IOException {
    Id root = writer.store(ChunkType.TREE, new Tree(List.of(entries)).encode());
    writer.flush();
    repo.reloadIndex();
    return new SnapshotManifest(
        SnapshotManifest.VERSION,
        clock.instant(),
        "host",
        "user",
        List.of("/"),
        List.of(),
        null,
        root.hex(),
        null,
        new SnapshotManifest.Stats(0, 0, 0, 0, 0, 0, 0, 0, 0),
        Map.of());
  }

  private Node file(String name, String content) throws IOException {
    byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
    Id chunk = writer.store(ChunkType.DATA, bytes);
    return new Node(
        name,
        Kind.FILE,
        0640,
        UID,
        GID,
        MTIME,
        MTIME,
        1,
        nextInode++,
        1,
        bytes.length,
        List.of(chunk),
        null,
        null);
  }

  private Node dir(String name, Node... children) throws IOException {
    Id tree = writer.store(ChunkType.TREE, new Tree(List.of(children)).encode());
    return new Node(
        name, Kind.DIRECTORY, 0750, UID, GID, MTIME, MTIME, 1, nextInode++, 2, 0, null, tree, null);
  }

  private Node special(String name, Kind kind, long rdev) {
    return new Node(
        name, kind, 0640, UID, GID, MTIME, MTIME, 1, nextInode++, 1, 0, null, null, null, rdev);
  }

  /** Relative path → content ("" for directories) of everything under {@code root}. */
  private static Map<String, String> tree(Path root) throws IOException {
    Map<String, String> out = new TreeMap<>();
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.filter(p -> !p.equals(root)).toList()) {
        out.put(
            root.relativize(p).toString(),
            Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) ? Files.readString(p) : "");
      }
    }
    return out;
  }

  /** {@link #tree} plus every entry's modification time: what "untouched" means here. */
  private static Map<String, String> contents(Path root) throws IOException {
    Map<String, String> out = new TreeMap<>();
    for (var e : tree(root).entrySet()) {
      Path p = root.resolve(e.getKey());
      out.put(
          e.getKey(),
          e.getValue() + " @" + Files.getLastModifiedTime(p, LinkOption.NOFOLLOW_LINKS));
    }
    out.put(".", "@" + Files.getLastModifiedTime(root));
    return out;
  }
}
