package dev.stele.engine;

import static dev.stele.engine.TestRepositories.backup;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.repo.Repository;
import dev.stele.repo.SnapshotManifest;
import dev.stele.snapshot.FileBackup;
import dev.stele.snapshot.FileBackupListener;
import dev.stele.snapshot.FileName;
import dev.stele.snapshot.Node;
import dev.stele.snapshot.SnapshotBrowser;
import dev.stele.testing.InMemoryBlobStore;
import dev.stele.testing.MutableClock;
import dev.stele.testing.RandomTree;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A backup records every entry as the kernel gives it: names and link targets as exact bytes,
 * FIFOs, sockets and device nodes as nodes, and a file that changes while it is read consistently.
 */
class BackupRecordsEverythingTest {
  @TempDir Path tmp;

  private final MutableClock clock = new MutableClock();
  private InMemoryBlobStore store;
  private Repository repo;

  @BeforeEach
  void createRepository() throws IOException {
    store = new InMemoryBlobStore(clock);
    repo = TestRepositories.init(store, TestRepositories.small(clock));
  }

  private static byte[] bytes(String ascii, int... tail) {
    byte[] head = ascii.getBytes(StandardCharsets.US_ASCII);
    byte[] out = Arrays.copyOf(head, head.length + tail.length);
    for (int i = 0; i < tail.length; i++) {
      out[head.length + i] = (byte) tail[i];
    }
    return out;
  }

  private static final byte[] COL_FF = bytes("col", 0xff);
  private static final byte[] COL_FE = bytes("col", 0xfe);
  private static final byte[] BAD_FF = bytes("bad", 0xff);

  /** The entries of the directory {@code path} of a snapshot, by their exact name bytes. */
  private Map<String, Node> entries(SnapshotManifest snapshot, Path path) throws IOException {
    SnapshotBrowser browser = new SnapshotBrowser(TestRepositories.open(store, clock));
    Map<String, Node> out = new LinkedHashMap<>();
    for (Node n : browser.tree(browser.find(snapshot, path.toString())).nodes()) {
      out.put(key(FileName.encode(n.name())), n);
    }
    return out;
  }

  private static String key(byte[] name) {
    return Arrays.toString(name);
  }

  private byte[] content(Node file) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new SnapshotBrowser(TestRepositories.open(store, clock)).cat(file, out);
    return out.toByteArray();
  }

  /** Writes files named by bytes that are not UTF-8, and links whose targets are not either. */
  private Path writeByteNames(Path source) throws IOException {
    Files.createDirectories(source);
    Files.writeString(FileName.resolve(source, FileName.decode(COL_FF)), "ff");
    Files.writeString(FileName.resolve(source, FileName.decode(COL_FE)), "fe");
    Files.writeString(FileName.resolve(source, FileName.decode(BAD_FF)), "bad");
    Files.writeString(source.resolve("a\\b"), "backslash");
    // ../up<ff>/t and /nowhere/<fe>: Path.resolve joins the elements' bytes as they are.
    Path up = FileName.resolve(tmp, FileName.decode(bytes("up", 0xff))).getFileName();
    Files.createSymbolicLink(source.resolve("relative"), Path.of("..").resolve(up).resolve("t"));
    Files.createSymbolicLink(
        source.resolve("absolute"), FileName.resolve(Path.of("/nowhere"), FileName.decode(COL_FE)));
    return source;
  }

  @Test
  void namesAndLinkTargetsAreRecordedAsTheirExactBytes() throws IOException {
    Path source = writeByteNames(tmp.resolve("names"));

    FileBackup.Result result = backup(repo, source);

    assertThat(result.warnings()).isEmpty();
    Map<String, Node> nodes = entries(result.manifest(), source);
    assertThat(nodes)
        .containsOnlyKeys(
            key(COL_FF),
            key(COL_FE),
            key(BAD_FF),
            key(bytes("a\\b")),
            key(bytes("relative")),
            key(bytes("absolute")));
    assertThat(content(nodes.get(key(COL_FF)))).isEqualTo(bytes("ff"));
    assertThat(content(nodes.get(key(COL_FE)))).isEqualTo(bytes("fe"));
    assertThat(content(nodes.get(key(BAD_FF)))).isEqualTo(bytes("bad"));
    assertThat(FileName.encode(nodes.get(key(bytes("relative"))).target()))
        .isEqualTo(bytes("../up", 0xff, '/', 't'));
    assertThat(FileName.encode(nodes.get(key(bytes("absolute"))).target()))
        .isEqualTo(bytes("/nowhere/col", 0xfe));
  }

  @Test
  void excludesMatchNamesAsLsShowsThem() throws IOException {
    Path source = writeByteNames(tmp.resolve("names"));
    Path sub = FileName.resolve(source, FileName.decode(bytes("sub", 0x80)));
    Files.createDirectory(sub);
    Files.writeString(sub.resolve("inside"), "excluded with its directory");

    FileBackup.Result result =
        backup(
            repo,
            TestRepositories.options()
                .withExcludes(List.of("col\\xff", "bad\\xFF", "a\\\\b", source + "/sub\\x80")),
            source);

    assertThat(
            entries(result.manifest(), source).values().stream()
                .map(n -> FileName.display(n.name())))
        .containsOnly("col\\xfe", "relative", "absolute");
  }

  @Test
  void fifosSocketsAndDevicesAreRecordedWithTheirAttributesAndReusedUnchanged() throws Exception {
    assertThat(System.getProperty("user.name")).as("tests run as root").isEqualTo("root");
    // Within the build directory: the source's ancestors must stay still between the backups.
    Path source = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "special-");
    try {
      writeByteNames(source);
      run("mkfifo", "-m", "0604", source.resolve("fifo").toString());
      run("mknod", "-m", "0640", source.resolve("null").toString(), "c", "1", "3");
      run("mknod", "-m", "0600", source.resolve("loop").toString(), "b", "7", "200");
      Files.setAttribute(source.resolve("null"), "unix:uid", 1234, LinkOption.NOFOLLOW_LINKS);
      Files.setAttribute(source.resolve("null"), "unix:gid", 5678, LinkOption.NOFOLLOW_LINKS);
      try (ServerSocketChannel socket = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
        socket.bind(UnixDomainSocketAddress.of(source.resolve("socket")));

        FileBackup.Result first = backup(repo, source);

        assertThat(first.warnings()).isEmpty();
        assertThat(first.manifest().stats().skipped()).isZero();
        Map<String, Node> nodes = entries(first.manifest(), source);
        Node fifo = nodes.get(key(bytes("fifo")));
        assertThat(fifo.kind()).isEqualTo(Node.Kind.FIFO);
        assertThat(fifo.mode()).isEqualTo(0604);
        assertThat(nodes.get(key(bytes("socket"))).kind()).isEqualTo(Node.Kind.SOCKET);
        Node nul = nodes.get(key(bytes("null")));
        assertThat(nul.kind()).isEqualTo(Node.Kind.CHAR_DEVICE);
        assertThat(nul.mode()).isEqualTo(0640);
        assertThat(nul.uid()).isEqualTo(1234);
        assertThat(nul.gid()).isEqualTo(5678);
        assertThat(nul.rdev()).as("makedev(1, 3)").isEqualTo((1 << 8) | 3);
        Node loop = nodes.get(key(bytes("loop")));
        assertThat(loop.kind()).isEqualTo(Node.Kind.BLOCK_DEVICE);
        assertThat(loop.rdev()).as("makedev(7, 200)").isEqualTo((7 << 8) | 200);
        assertThat(first.manifest().stats().files()).isEqualTo(nodes.size());

        FileBackup.Result second =
            backup(
                repo,
                TestRepositories.options().withParent(first.manifest(), first.id().hex()),
                source);

        assertThat(second.warnings()).isEmpty();
        assertThat(second.manifest().stats().filesNew()).isZero();
        assertThat(second.manifest().stats().chunksNew()).isZero();
        assertThat(entries(second.manifest(), source)).isEqualTo(nodes);
      }
    } finally {
      RoundTripTest.deleteRecursively(source);
    }
  }

  private static void run(String... command) throws Exception {
    Process p = new ProcessBuilder(command).inheritIO().start();
    assertThat(p.waitFor()).as(String.join(" ", command)).isZero();
  }

  @Test
  void aFileGrowingWhileItIsReadIsRecordedAsReadWithAWarningAndReadAgainNextTime()
      throws IOException {
    Path source = Files.createDirectories(tmp.resolve("growing"));
    Path log = source.resolve("log");
    byte[] start = new byte[300 << 10];
    new Random(5).nextBytes(start);
    Files.write(log, start);

    FileBackup.Result first =
        backupChangingOnFirstChunk(
            source, () -> Files.write(log, new byte[100 << 10], StandardOpenOption.APPEND));

    assertThat(first.warnings())
        .singleElement()
        .asString()
        .startsWith(log + ": changed while it was read");
    Node recorded = entries(first.manifest(), source).get(key(bytes("log")));
    assertThat(recorded.size())
        .as("size = bytes read = sum of the chunks")
        .isEqualTo(content(recorded).length)
        .isGreaterThanOrEqualTo(start.length);
    assertThat(recorded.ctimeNanos()).as("the mark of a file changed while read").isZero();
    assertThat(first.warnings().get(0)).contains("recorded the " + recorded.size() + " bytes");
    assertThat(first.manifest().stats().bytes()).isEqualTo(recorded.size());

    FileBackup.Result second =
        backup(
            repo,
            TestRepositories.options().withParent(first.manifest(), first.id().hex()),
            source);

    assertThat(second.warnings()).isEmpty();
    assertThat(second.manifest().stats().filesNew()).as("read again").isEqualTo(1);
    Node again = entries(second.manifest(), source).get(key(bytes("log")));
    assertThat(content(again)).isEqualTo(Files.readAllBytes(log));
  }

  @Test
  void aFileRewrittenInPlaceWhileItIsReadIsCaughtByItsTimesAndReadAgainNextTime()
      throws IOException {
    Path source = Files.createDirectories(tmp.resolve("rewritten"));
    Path data = source.resolve("data");
    Files.write(data, new byte[200 << 10]);
    // An old mtime, so that the rewrite moves it even within one tick of the kernel's clock.
    Files.setLastModifiedTime(data, FileTime.fromMillis(1_000_000_000_000L));
    byte[] ones = new byte[200 << 10];
    Arrays.fill(ones, (byte) 1);

    FileBackup.Result first = backupChangingOnFirstChunk(source, () -> Files.write(data, ones));

    assertThat(first.warnings())
        .singleElement()
        .asString()
        .startsWith(data + ": changed while it was read");
    Node recorded = entries(first.manifest(), source).get(key(bytes("data")));
    assertThat(recorded.size()).isEqualTo(content(recorded).length).isEqualTo(ones.length);
    assertThat(recorded.ctimeNanos()).isZero();

    FileBackup.Result second =
        backup(
            repo,
            TestRepositories.options().withParent(first.manifest(), first.id().hex()),
            source);

    assertThat(second.warnings()).isEmpty();
    assertThat(second.manifest().stats().filesNew()).as("read again").isEqualTo(1);
    assertThat(content(entries(second.manifest(), source).get(key(bytes("data"))))).isEqualTo(ones);
  }

  private interface Change {
    void apply() throws IOException;
  }

  /** A backup of {@code source} whose own read path applies {@code change} once, mid-file. */
  private FileBackup.Result backupChangingOnFirstChunk(Path source, Change change)
      throws IOException {
    AtomicBoolean changed = new AtomicBoolean();
    FileBackupListener changeOnFirstChunk =
        new FileBackupListener() {
          @Override
          public void bytesRead(long bytes) {
            if (changed.compareAndSet(false, true)) {
              try {
                change.apply();
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            }
          }
        };
    FileBackup.Result result =
        new FileBackup(repo, TestRepositories.options(), changeOnFirstChunk).run(List.of(source));
    assertThat(changed).as("the change was made while the file was read").isTrue();
    return result;
  }

  @Test
  void randomTreesWithByteNamesAndSpecialFilesAreRecordedEntryForEntry() throws IOException {
    Path source =
        new RandomTree(61).files(60).byteNames(true).specialFiles(true).writeTo(tmp.resolve("rnd"));

    FileBackup.Result result = backup(repo, source);

    assertThat(result.warnings()).isEmpty();
    SnapshotBrowser browser = new SnapshotBrowser(TestRepositories.open(store, clock));
    Map<String, Node> recorded = new TreeMap<>();
    Node start = browser.find(result.manifest(), source.toString());
    for (SnapshotBrowser.Entry e : browser.list(start, source.toString(), true)) {
      recorded.put(e.path(), e.node());
    }
    Map<String, Path> onDisk = new TreeMap<>();
    try (var walk = Files.walk(source)) {
      walk.forEach(p -> onDisk.put(FileName.ofPath(p), p));
    }
    assertThat(recorded.keySet()).isEqualTo(onDisk.keySet());
    assertThat(recorded.keySet()).anyMatch(FileName::hasEscapes);
    for (var e : onDisk.entrySet()) {
      Node node = recorded.get(e.getKey());
      Path path = e.getValue();
      Map<String, Object> a =
          Files.readAttributes(path, "unix:mode,size,rdev", LinkOption.NOFOLLOW_LINKS);
      int mode = (Integer) a.get("mode");
      String what = FileName.display(e.getKey());
      assertThat(node.kind()).as(what).isEqualTo(KINDS.get(mode & 0170000));
      assertThat(node.mode()).as(what).isEqualTo(mode & 07777);
      switch (node.kind()) {
        case FILE -> assertThat(content(node)).as(what).isEqualTo(Files.readAllBytes(path));
        case SYMLINK ->
            assertThat(node.target())
                .as(what)
                .isEqualTo(FileName.ofPath(Files.readSymbolicLink(path)));
        case CHAR_DEVICE, BLOCK_DEVICE ->
            assertThat(node.rdev()).as(what).isEqualTo((Long) a.get("rdev"));
        default -> {}
      }
    }
  }

  private static final Map<Integer, Node.Kind> KINDS =
      Map.of(
          0100000, Node.Kind.FILE,
          0040000, Node.Kind.DIRECTORY,
          0120000, Node.Kind.SYMLINK,
          0010000, Node.Kind.FIFO,
          0140000, Node.Kind.SOCKET,
          0020000, Node.Kind.CHAR_DEVICE,
          0060000, Node.Kind.BLOCK_DEVICE);
}
